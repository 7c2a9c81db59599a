// RunConvert: a stage program that projects each batch, encodes it for the sink and writes it in order; then commit.
#include "recflow/pipeline/convert_job.h"

#include <memory>

#include "recflow/pipeline/abort_outputs.h"
#include "recflow/pipeline/sink_writer.h"

namespace recflow::pipeline {

namespace {

// One unit's encoded records and, after Assign, its chunks.
struct ConvertState final : UnitState {
  dataset::SinkBatch sink_batch;
  dataset::SinkWork work;
};

class ConvertProgram final : public StageProgram {
 public:
  ConvertProgram(dataset::DatasetSink* sink, const ConvertOptions& options, SchemaPtr projected_schema)
      : writer_(sink), options_(options), projected_schema_(std::move(projected_schema)) {}

  Result<std::unique_ptr<UnitState>> Process(const UnitInfo&, DecodedUnit decoded) override {
    auto state = std::make_unique<ConvertState>();
    ASSIGN_OR_RETURN(auto batch, Project(decoded.batch));
    RETURN_NOT_OK(writer_.Prepare(*batch, &state->sink_batch));
    return std::unique_ptr<UnitState>(std::move(state));
  }
  Status Assign(const UnitInfo&, UnitState* state) override {
    auto* s = static_cast<ConvertState*>(state);
    return writer_.sink()->Assign(std::move(s->sink_batch), &s->work);
  }
  Status Compress(UnitState* state) override { return writer_.Compress(&static_cast<ConvertState*>(state)->work); }
  Status Write(UnitState* state) override {
    return writer_.sink()->Write(std::move(static_cast<ConvertState*>(state)->work));
  }
  void OnSkipped(size_t, const SkippedRecord& record) override {
    if (options_.on_skipped) options_.on_skipped(record);
  }
  SinkWriter& writer() { return writer_; }

 private:
  Result<std::shared_ptr<RecordBatch>> Project(const std::shared_ptr<RecordBatch>& batch) const {
    if (options_.projection.empty()) return batch;
    std::vector<std::shared_ptr<ArrayData>> columns;
    for (int c : options_.projection) columns.push_back(batch->column_data(c));
    return RecordBatch::Make(projected_schema_, batch->num_rows(), std::move(columns));
  }

  SinkWriter writer_;
  const ConvertOptions& options_;
  SchemaPtr projected_schema_;  // the source's schema after options_.projection
};

}  // namespace

Result<SchemaPtr> ProjectSchema(const SchemaPtr& schema, const std::vector<int>& projection) {
  if (projection.empty()) return schema;
  std::vector<FieldPtr> fields;
  std::vector<bool> used(static_cast<size_t>(schema->num_fields()), false);
  for (int c : projection) {
    if (c < 0 || c >= schema->num_fields()) return Status::InvalidArgument("column index out of range");
    if (used[static_cast<size_t>(c)]) {
      return Status::InvalidArgument("column '" + schema->field(c)->name() + "' is selected twice");
    }
    used[static_cast<size_t>(c)] = true;
    fields.push_back(schema->field(c));
  }
  return Schema::Make(std::move(fields));
}

Result<ConvertStats> RunConvert(const ExecContext& context, Source* source, dataset::DatasetSink* sink,
                                const ConvertOptions& options) {
  ASSIGN_OR_RETURN(SchemaPtr projected_schema, ProjectSchema(source->schema(), options.projection));
  ConvertProgram program(sink, options, std::move(projected_schema));
  StageOptions stage_options;
  stage_options.max_in_flight = options.max_in_flight;
  stage_options.progress = options.progress;
  auto stage = RunStage(context, {source}, &program, stage_options, [&] { return program.writer().Flush(); });
  Status st = stage.status();
  if (st.ok()) st = sink->PrepareCommit();
  if (st.ok()) st = context.stop_token.PassPointOfNoReturn();
  if (st.ok()) st = sink->Commit();
  if (!st.ok()) return AbortOutputs(std::move(st), {sink});
  ConvertStats stats;
  stats.input_records = stage->input_records;
  stats.skipped_records = stage->skipped_records;
  stats.input_bytes = stage->input_bytes;
  stats.threads = stage->threads;
  stats.narrowed_doubles = program.writer().NarrowedDoubles();
  stats.sink = sink->stats();
  return stats;
}

}  // namespace recflow::pipeline
