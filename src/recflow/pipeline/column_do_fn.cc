// Column DoFns: per-job column replacement with row errors tagged by column; batch functions typed by a dry run.
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

// `fields`/`columns` with `field` stored under its name (replacing or appending).
void Store(std::vector<FieldPtr>* fields, std::vector<std::shared_ptr<ArrayData>>* columns, const FieldPtr& field,
           std::shared_ptr<ArrayData> column) {
  for (size_t i = 0; i < fields->size(); ++i) {
    if ((*fields)[i]->name() == field->name()) {
      (*fields)[i] = field;
      if (columns != nullptr) (*columns)[i] = std::move(column);
      return;
    }
  }
  fields->push_back(field);
  if (columns != nullptr) columns->push_back(std::move(column));
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
      Store(&fields, nullptr, job.output, nullptr);
    }
    return Schema::Make(std::move(fields), input->metadata());
  }

  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const override {
    std::vector<FieldPtr> fields = input.schema()->fields();
    std::vector<std::shared_ptr<ArrayData>> columns = input.columns();
    for (const ColumnJob& job : jobs_) {
      const int index = Find(fields, job.input);
      if (index < 0) return Status::NotFound("no column '" + job.input + "'");
      ops::RowErrors errors;
      ProcessContext job_ctx = ctx.WithRowErrors(&errors);
      auto column = job.kernel(columns[static_cast<size_t>(index)], job_ctx);
      if (!column.ok()) return column.status().WithField(job.input);
      for (const ops::RowError& e : errors.errors()) ctx.row_errors().Add(e.row, e.status.WithField(job.input));
      Store(&fields, &columns, job.output, std::move(column).ValueUnsafe());
    }
    ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(Schema::Make(std::move(fields), input.schema()->metadata()),
                                                   input.num_rows(), std::move(columns)));
    return DoFnOutput{std::move(batch), {}};
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
