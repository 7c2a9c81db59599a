// PassPlan: a Pass over the inputs (units in order, the chosen columns), scaled, rebatched and written as IPC.
#include "recflow/serve/pass.h"

#include "recflow/formats/arrow_ipc/ipc_writer.h"

namespace recflow::serve {

namespace {

/// One pass over the inputs: decoded batches (units in order), the chosen columns.
class Pass {
 public:
  static Result<std::unique_ptr<Pass>> Open(const ServeOptions& options) {
    auto pass = std::unique_ptr<Pass>(new Pass());
    ASSIGN_OR_RETURN(pass->source_, pipeline::OpenInputs(options.inputs, options.input_options));
    const Schema& schema = *pass->source_->schema();
    std::vector<FieldPtr> fields;
    for (const std::string& name : options.columns) {
      const int index = schema.GetFieldIndex(name);
      if (index < 0) return Status::InvalidArgument("no column '" + name + "' in " + schema.ToString());
      pass->projection_.push_back(index);
      fields.push_back(schema.field(index));
    }
    pass->schema_ = options.columns.empty() ? pass->source_->schema() : Schema::Make(std::move(fields));
    return pass;
  }

  const SchemaPtr& schema() const { return schema_; }

  /// The next non-empty batch of the pass, or nullptr at its end.
  Result<std::shared_ptr<RecordBatch>> Next() {
    while (true) {
      ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, source_->NextUnit());
      if (unit == nullptr) return std::shared_ptr<RecordBatch>();
      ASSIGN_OR_RETURN(DecodedUnit decoded, unit->Decode());
      if (decoded.batch->num_rows() == 0) continue;
      if (projection_.empty()) return decoded.batch;
      std::vector<std::shared_ptr<ArrayData>> columns;
      for (int index : projection_) columns.push_back(decoded.batch->column_data(index));
      return RecordBatch::Make(schema_, decoded.batch->num_rows(), std::move(columns));
    }
  }

 private:
  std::unique_ptr<Source> source_;
  std::vector<int> projection_;
  SchemaPtr schema_;
};

}  // namespace

Result<std::shared_ptr<const PassPlan>> PassPlan::Make(ServeOptions options) {
  RETURN_NOT_OK(options.Validate());
  ASSIGN_OR_RETURN(auto pass, Pass::Open(options));  // inputs and columns are checked here
  std::shared_ptr<const StandardScaler> scaler;
  if (!options.standard_scale.empty()) {
    ASSIGN_OR_RETURN(auto fitted,
                     StandardScaler::Fit(*pass->schema(), options.standard_scale, [&] { return pass->Next(); }));
    scaler = std::move(fitted);
  }
  return std::shared_ptr<const PassPlan>(new PassPlan(std::move(options), std::move(scaler)));
}

Status PassPlan::Stream(OutputStream* out) const {
  ASSIGN_OR_RETURN(auto pass, Pass::Open(options_));
  const SchemaPtr schema = scaler_ != nullptr ? scaler_->output_schema() : pass->schema();
  ASSIGN_OR_RETURN(auto writer, arrow_ipc::IpcWriter::OpenStream(out, schema, options_.ipc));
  Rebatcher rebatcher(options_.batch_size, options_.batch_mode);
  while (true) {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, pass->Next());
    if (batch == nullptr) break;
    if (scaler_ != nullptr) {
      ASSIGN_OR_RETURN(batch, scaler_->Apply(*batch));
    }
    ASSIGN_OR_RETURN(auto ready, rebatcher.Add(std::move(batch)));
    for (const auto& b : ready) RETURN_NOT_OK(writer->Write(*b));
  }
  ASSIGN_OR_RETURN(auto rest, rebatcher.Finish());
  for (const auto& b : rest) RETURN_NOT_OK(writer->Write(*b));
  return writer->Finish();  // which flushes
}

}  // namespace recflow::serve
