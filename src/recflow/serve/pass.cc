// PassPlan: a Pass over the inputs (units in order, the chosen columns), scaled by the standard_scale step's kernel
// (ops::ColumnScaler), and fed to an IpcStreamSink one batch at a time.
#include "recflow/serve/pass.h"

#include <cstdio>
#include <optional>

#include "recflow/formats/arrow_ipc/ipc_stream_sink.h"
#include "recflow/ops/columns/select.h"
#include "recflow/serve/held_bytes.h"
#include "recflow/serve/socket_stream.h"

namespace recflow::serve {

namespace {

/// One pass over the inputs: decoded batches (units in order), the chosen columns.
class Pass {
 public:
  static Result<std::unique_ptr<Pass>> Open(const ServeOptions& options) {
    auto pass = std::unique_ptr<Pass>(new Pass());
    ASSIGN_OR_RETURN(pass->source_, dataset::OpenInputs(options.inputs, options.input_options));
    pass->schema_ = pass->source_->schema();
    if (!options.columns.empty()) {
      ASSIGN_OR_RETURN(ops::Projection projection, ops::Projection::Select(pass->schema_, options.columns));
      pass->schema_ = projection.output_schema();
      pass->projection_.emplace(std::move(projection));
    }
    return pass;
  }

  const SchemaPtr& schema() const { return schema_; }
  /// The file the batch Next() returned last comes from.
  const std::string& file() const { return file_; }
  /// The index of that batch's first row among the rows of its file.
  int64_t first_row() const { return first_row_; }

  /// The next non-empty batch of the pass, or nullptr at its end.
  Result<std::shared_ptr<RecordBatch>> Next() {
    while (true) {
      ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, NextSourceUnit(*source_));
      if (unit == nullptr) return std::shared_ptr<RecordBatch>();
      if (source_->current_file() != file_) {
        file_ = source_->current_file();
        next_row_ = 0;
      }
      ASSIGN_OR_RETURN(DecodedUnit decoded, DecodeUnit(*unit));
      first_row_ = next_row_;
      next_row_ += decoded.input_records;
      if (decoded.batch->num_rows() == 0) continue;
      if (!projection_) return decoded.batch;
      return projection_->Apply(*decoded.batch);
    }
  }

 private:
  std::unique_ptr<Source> source_;
  std::optional<ops::Projection> projection_;  // the chosen columns; none: all
  SchemaPtr schema_;
  std::string file_;
  int64_t first_row_ = 0;
  int64_t next_row_ = 0;
};

std::string Mebibytes(int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

/// The indices of `columns` in `schema`; InvalidArgument for a missing or non-numeric one.
Result<std::vector<int>> ScaledColumns(const Schema& schema, const std::vector<std::string>& columns) {
  std::vector<int> indices;
  for (const std::string& name : columns) {
    const int index = schema.GetFieldIndex(name);
    if (index < 0) return Status::InvalidArgument("standard-scale: no column '" + name + "' in " + schema.ToString());
    const DataType& type = *schema.field(index)->type();
    if (!type.is_integer() && !type.is_floating()) {
      return Status::InvalidArgument("standard-scale: column '" + name + "' is " + type.ToString() + ", not a number");
    }
    indices.push_back(index);
  }
  return indices;
}

/// Sends `partial` (null: nothing) through the rest of `sink`'s steps, one batch at a time.
Status ProcessAndEmit(arrow_ipc::IpcStreamSink& sink, SinkPartial* partial) {
  if (partial == nullptr) return Status::OK();
  RETURN_NOT_OK(sink.Process(partial));
  return sink.Emit(partial);
}

/// OutOfMemory when `batch` (just read), the rows `sink` holds for the next batch and the send
/// buffer take more than the pass may hold.
Status CheckMemory(const Pass& pass, const std::shared_ptr<RecordBatch>& batch, const arrow_ipc::IpcStreamSink& sink,
                   int64_t limit) {
  std::vector<std::shared_ptr<RecordBatch>> held = sink.pending();
  held.push_back(batch);
  const int64_t bytes = HeldBytes(held) + FdOutputStream::kGatherBytes;
  if (bytes <= limit) return Status::OK();
  return Status::OutOfMemory("this pass would hold " + Mebibytes(bytes) +
                             " (the rows read, the rows waiting to fill a batch and the send buffer), more than the " +
                             Mebibytes(limit) + " one client may hold: raise --client-memory-mb")
      .WithFile(pass.file())
      .WithRecord(pass.first_row());
}

}  // namespace

Result<std::shared_ptr<const PassPlan>> PassPlan::Make(ServeOptions options) {
  RETURN_NOT_OK(options.Validate());
  ASSIGN_OR_RETURN(auto pass, Pass::Open(options));  // inputs and columns are checked here
  std::optional<ops::ColumnScaler> scaler;
  std::vector<ops::Moments> moments(options.standard_scale.size());
  if (!options.standard_scale.empty()) {
    ASSIGN_OR_RETURN(std::vector<int> indices, ScaledColumns(*pass->schema(), options.standard_scale));
    ASSIGN_OR_RETURN(ops::ColumnScaler made, ops::ColumnScaler::Make(pass->schema(), options.standard_scale, false));
    scaler.emplace(std::move(made));
    while (true) {
      ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, pass->Next());
      if (batch == nullptr) break;
      for (size_t k = 0; k < indices.size(); ++k) RETURN_NOT_OK(moments[k].Add(*batch->column_data(indices[k])));
    }
  }
  return std::shared_ptr<const PassPlan>(new PassPlan(std::move(options), std::move(scaler), std::move(moments)));
}

Status PassPlan::Stream(OutputStream* out) const {
  ASSIGN_OR_RETURN(auto pass, Pass::Open(options_));
  const SchemaPtr schema = scaler_ ? scaler_->output_schema() : pass->schema();
  arrow_ipc::IpcStreamSinkOptions stream;
  stream.batch_rows = options_.batch_size;
  stream.batch_mode = options_.batch_mode;
  stream.ipc = options_.ipc;
  ASSIGN_OR_RETURN(auto sink, arrow_ipc::IpcStreamSink::Open(out, schema, stream));
  while (true) {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, pass->Next());
    if (batch == nullptr) break;
    if (scaler_) {
      ASSIGN_OR_RETURN(batch, scaler_->Apply(*batch, moments_));
    }
    RETURN_NOT_OK(CheckMemory(*pass, batch, *sink, options_.client_memory_bytes));
    ASSIGN_OR_RETURN(auto partial, sink->Consume(nullptr, batch));
    RETURN_NOT_OK(sink->Merge(partial.get()));
    RETURN_NOT_OK(ProcessAndEmit(*sink, partial.get()));
  }
  ASSIGN_OR_RETURN(auto rest, sink->Drain());
  RETURN_NOT_OK(ProcessAndEmit(*sink, rest.get()));
  return sink->Finish();  // which flushes
}

}  // namespace recflow::serve
