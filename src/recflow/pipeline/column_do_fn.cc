// Column DoFns: per-job column replacement into the planned output schema, with row errors tagged by column; batch
// functions typed by a dry run.
#include "recflow/pipeline/column_do_fn.h"

#include "recflow/columnar/builder.h"

namespace recflow::pipeline {

namespace {

// An empty batch of `schema`.
Result<std::shared_ptr<RecordBatch>> EmptyBatch(const SchemaPtr& schema) {
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (const FieldPtr& field : schema->fields()) {
    ASSIGN_OR_RETURN(auto column, MakeEmptyArray(field->type()));
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(schema, 0, std::move(columns));
}

// `fields` with `field` stored under its name (replacing or appending).
void Store(std::vector<FieldPtr>* fields, const FieldPtr& field) {
  for (FieldPtr& existing : *fields) {
    if (existing->name() == field->name()) {
      existing = field;
      return;
    }
  }
  fields->push_back(field);
}

int Find(const std::vector<FieldPtr>& fields, const std::string& name) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i]->name() == name) return static_cast<int>(i);
  }
  return -1;
}

class ColumnDoFn final : public DoFn {
 public:
  explicit ColumnDoFn(std::vector<ColumnJob> jobs) : jobs_(std::move(jobs)) {}

  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override {
    std::vector<FieldPtr> fields = input->fields();
    for (const ColumnJob& job : jobs_) {
      if (Find(fields, job.input) < 0) {
        std::string names;
        for (const FieldPtr& f : fields) names += (names.empty() ? "" : ", ") + f->name();
        return Status::NotFound("no column '" + job.input + "' (columns: " + names + ")");
      }
      Store(&fields, job.output);
    }
    return Schema::Make(std::move(fields), input->metadata());
  }

  // A job's input is found by name in the output schema: the columns a job sees are the input's
  // with earlier jobs' outputs stored by name (in place or appended), so a name keeps its
  // first position from the job that sees it to the output.
  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const override {
    const SchemaPtr& schema = ctx.output_schema();
    std::vector<std::shared_ptr<ArrayData>> columns = input.columns();
    columns.resize(static_cast<size_t>(schema->num_fields()));
    for (const ColumnJob& job : jobs_) {
      const int index = schema->GetFieldIndex(job.input);
      if (index < 0 || columns[static_cast<size_t>(index)] == nullptr) {
        return Status::NotFound("no column '" + job.input + "'");
      }
      ops::RowErrors errors;
      ProcessContext job_ctx = ctx.WithRowErrors(&errors);
      auto column = job.kernel(columns[static_cast<size_t>(index)], job_ctx);
      if (!column.ok()) return column.status().WithField(job.input);
      for (const ops::RowError& e : errors.errors()) ctx.row_errors().Add(e.row, e.status.WithField(job.input));
      columns[static_cast<size_t>(schema->GetFieldIndex(job.output->name()))] = std::move(column).ValueUnsafe();
    }
    ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema, input.num_rows(), std::move(columns)));
    return DoFnOutput{std::move(batch), {}};
  }

  std::optional<std::vector<std::string>> WrittenColumns() const override {
    std::vector<std::string> written;
    for (const ColumnJob& job : jobs_) written.push_back(job.output->name());
    return written;
  }

 private:
  std::vector<ColumnJob> jobs_;
};

class BatchFunctionDoFn final : public DoFn {
 public:
  explicit BatchFunctionDoFn(BatchFunction fn) : fn_(std::move(fn)) {}
  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override {
    ASSIGN_OR_RETURN(auto empty, EmptyBatch(input));
    ASSIGN_OR_RETURN(auto out, fn_(*empty));
    return out->schema();
  }
  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext&) const override {
    ASSIGN_OR_RETURN(auto out, fn_(input));
    return DoFnOutput{std::move(out), {}};
  }

 private:
  BatchFunction fn_;
};

}  // namespace

std::shared_ptr<const DoFn> MakeColumnDoFn(std::vector<ColumnJob> jobs) {
  return std::make_shared<ColumnDoFn>(std::move(jobs));
}

std::shared_ptr<const DoFn> MakeBatchDoFn(BatchFunction fn) { return std::make_shared<BatchFunctionDoFn>(std::move(fn)); }

}  // namespace recflow::pipeline
