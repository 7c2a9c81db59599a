// Fuzz target: ParsePipelineYaml on arbitrary text (hostile YAML, unknown ops, bad parameters) — errors only, no
// crash. Reads are replaced by an in-memory table so that no input names a real file (/dev/zero, stdin).
#include <cstddef>
#include <cstdint>
#include <string>

#include "recflow/pipeline/yaml_pipeline.h"

namespace {

// The built-in steps, with read and read_idx producing an empty in-memory table of a few types.
recflow::pipeline::StepRegistry FuzzSteps() {
  using namespace recflow;
  using namespace recflow::pipeline;
  StepRegistry registry = BuiltinSteps();
  auto fake_read = [](StepContext& ctx) -> Result<std::optional<PCollection>> {
    (void)ctx.args->StringList("path");
    (void)ctx.args->String("images", "");
    (void)ctx.args->String("labels", "");
    auto schema = Schema::Make({Field::Make("x", int64()), Field::Make("y", utf8()), Field::Make("k", utf8()),
                                Field::Make("path", utf8()), Field::Make("label", int64()), Field::Make("z", float64())});
    return ctx.pipeline->Create(ctx.name, schema, {});
  };
  registry.Replace(StepType{"read", "", "path", 0, 0, fake_read});
  registry.Replace(StepType{"read_idx", "", "", 0, 0, fake_read});
  return registry;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const recflow::pipeline::StepRegistry registry = FuzzSteps();
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)recflow::pipeline::ParsePipelineYaml(text, "fuzz.yaml", "/nonexistent", {}, registry);
  return 0;
}
