// py_map / py_filter / py_flat_map: their arguments read from the step, the PyDoFn added as a ParDo.
#include "recflow/python/py_steps.h"

#include <string>

#include "recflow/ops/columns/type_name.h"
#include "recflow/pipeline/step_registry.h"
#include "recflow/python/write_columns.h"

namespace recflow::python {

namespace {

/// Builds the ParDo of a step of `kind` over functions->callables[fn].
Result<std::optional<pipeline::PCollection>> BuildPyStep(pipeline::StepContext& ctx, PyFnKind kind,
                                                         const std::shared_ptr<const PyFunctions>& functions) {
  ASSIGN_OR_RETURN(const int64_t index, ctx.args->Int("fn"));
  if (index < 0 || index >= static_cast<int64_t>(functions->callables.size())) {
    return ctx.args->Error("fn", "no function " + std::to_string(index) + " was handed over with the pipeline");
  }
  ASSIGN_OR_RETURN(std::string label, ctx.args->String("label", "fn"));
  SchemaPtr declared;
  if (kind != PyFnKind::kFilter && ctx.args->Has("schema")) {
    ASSIGN_OR_RETURN(const auto columns, ctx.args->StringMap("schema"));
    std::vector<FieldPtr> fields;
    for (const auto& [name, type_name] : columns) {
      Result<DataTypePtr> type = ops::ParseTypeName(type_name);
      if (!type.ok()) return ctx.args->Error("schema", "column '" + name + "': " + type.status().message());
      fields.push_back(Field::Make(name, *type));
    }
    declared = Schema::Make(std::move(fields));
  }
  auto fn = std::make_shared<PyDoFn>(kind, functions->callables[static_cast<size_t>(index)], std::move(label),
                                     std::move(declared), functions->errors);
  return ctx.pipeline->ParDo(ctx.name, ctx.input(), std::move(fn), ctx.options);
}

}  // namespace

void AddPythonSteps(pipeline::StepRegistry* registry, std::shared_ptr<const PyFunctions> functions) {
  const struct {
    const char* name;
    const char* summary;
    PyFnKind kind;
  } kSteps[] = {
      {"py_map", "a Python function over batches returning a batch of the same rows (recflow.Pipeline.map)",
       PyFnKind::kMap},
      {"py_filter", "a Python function over batches returning a boolean mask (recflow.Pipeline.filter)",
       PyFnKind::kFilter},
      {"py_flat_map", "a Python function over batches returning batches (recflow.Pipeline.flat_map)",
       PyFnKind::kFlatMap},
  };
  for (const auto& step : kSteps) {
    registry->Replace(pipeline::StepType{step.name, step.summary, "", 1, 1,
                                         [kind = step.kind, functions](pipeline::StepContext& ctx) {
                                           return BuildPyStep(ctx, kind, functions);
                                         }});
  }
}

pipeline::StepRegistry StepsWithPython(const pybind11::list& callables, std::shared_ptr<PyFunctions>* functions) {
  *functions = std::make_shared<PyFunctions>();
  for (const pybind11::handle callable : callables) {
    (*functions)->callables.push_back(KeepAlive(pybind11::reinterpret_borrow<pybind11::object>(callable)));
  }
  pipeline::StepRegistry registry = pipeline::BuiltinSteps();
  AddPythonSteps(&registry, *functions);
  return registry;
}

}  // namespace recflow::python
