// MakeFilesPass: the short form's pipeline built in C++ from the step DoFns; the standard_scale fit run once and
// kept as a Create node.
#include "recflow/serve/files_pass.h"

#include "recflow/pipeline/collect_sink.h"
#include "recflow/pipeline/column_steps.h"
#include "recflow/pipeline/fitted_combiners.h"
#include "recflow/pipeline/local_runner.h"

namespace recflow::serve {

namespace {

constexpr const char* kFit = "standard_scale.fit";

/// Checks that `columns` are numeric columns of `schema` (what standard-scale can scale).
Status CheckScaledColumns(const Schema& schema, const std::vector<std::string>& columns) {
  for (const std::string& name : columns) {
    const int index = schema.GetFieldIndex(name);
    if (index < 0) return Status::InvalidArgument("standard-scale: no column '" + name + "' in " + schema.ToString());
    const DataType& type = *schema.field(index)->type();
    if (!type.is_integer() && !type.is_floating()) {
      return Status::InvalidArgument("standard-scale: column '" + name + "' is " + type.ToString() + ", not a number");
    }
  }
  return Status::OK();
}

/// Adds read → select (when options.columns) to `p`; their output.
Result<pipeline::PCollection> AddRows(pipeline::Pipeline& p, const ServeOptions& options) {
  const pipeline::SourceFactory open = pipeline::InputsFactory(options.inputs, options.input_options);
  // Opened here first so that an input's error comes as it is (naming its file), not as the read step's.
  RETURN_NOT_OK(open(p.file_system()).status());
  pipeline::PCollection rows = p.Read("read", open);
  RETURN_NOT_OK(p.status());
  if (options.columns.empty()) return rows;
  ASSIGN_OR_RETURN(ops::Projection projection, ops::Projection::Select(rows.schema(), options.columns));
  rows = p.ParDo("select", rows, pipeline::MakeProjectionDoFn(std::move(projection)));
  RETURN_NOT_OK(p.status());
  return rows;
}

/// The moments of options.standard_scale over the inputs: one run of read → select → the
/// standard_scale step's fit (a CombineGlobally of MomentsCombiner), its one row collected.
Result<std::vector<std::shared_ptr<RecordBatch>>> Fit(const ServeOptions& options, const ExecContext& context,
                                                      SchemaPtr* schema) {
  pipeline::Pipeline p;
  p.set_file_system(context.file_system);
  ASSIGN_OR_RETURN(pipeline::PCollection rows, AddRows(p, options));
  RETURN_NOT_OK(CheckScaledColumns(*rows.schema(), options.standard_scale));
  std::vector<pipeline::Aggregate> aggregates;
  for (const std::string& column : options.standard_scale) {
    aggregates.push_back(pipeline::Aggregate{column, pipeline::MomentsCombiner(), column});
  }
  const pipeline::PCollection fit = p.CombineGlobally(kFit, rows, std::move(aggregates));
  RETURN_NOT_OK(p.status());
  *schema = fit.schema();
  pipeline::CollectSink moments;
  pipeline::RunOptions run = pipeline::RunOptions::Defaults();
  run.outputs[kFit] = &moments;
  RETURN_NOT_OK(pipeline::RunPipeline(context, p, run, nullptr).status());
  return moments.TakeBatches();
}

}  // namespace

Result<std::shared_ptr<const PipelinePass>> MakeFilesPass(const ServeOptions& options, const ExecContext& context) {
  RETURN_NOT_OK(options.Validate());
  auto p = std::make_shared<pipeline::Pipeline>();
  p->set_file_system(context.file_system);
  ASSIGN_OR_RETURN(pipeline::PCollection rows, AddRows(*p, options));
  if (!options.standard_scale.empty()) {
    SchemaPtr fit_schema;
    ASSIGN_OR_RETURN(auto fitted, Fit(options, context, &fit_schema));
    ASSIGN_OR_RETURN(ops::ColumnScaler scaler, ops::ColumnScaler::Make(rows.schema(), options.standard_scale, false));
    pipeline::StepOptions scale;
    scale.side_inputs = {{"fit", p->Create(kFit, fit_schema, std::move(fitted))}};
    rows = p->ParDo("standard_scale", rows, pipeline::MakeScaleDoFn(std::move(scaler), options.standard_scale), scale);
    RETURN_NOT_OK(p->status());
  }
  PassOptions pass;
  pass.stream.batch_rows = options.batch_size;
  pass.stream.batch_mode = options.batch_mode;
  pass.stream.ipc = options.ipc;
  pass.client_memory_bytes = options.client_memory_bytes;
  const std::string step = p->node(rows.node()).name;
  return PipelinePass::Make(std::move(p), step, pass, context);
}

}  // namespace recflow::serve
