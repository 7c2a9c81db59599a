// YAML pipeline tests: steps, defaults, parameters and --set, side inputs, and errors that name the line, column and
// allowed keys.
#include <gtest/gtest.h>

#include "recflow/columnar/element_access.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/formats/source_test_util.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/plan.h"
#include "recflow/pipeline/yaml_pipeline.h"
#include "recflow/testing/testdata.h"

namespace recflow::pipeline {
namespace {

std::string Penguins() { return (testing::TestdataDir() / "csv/penguins_processed.csv").string(); }

Result<YamlPipeline> Parse(const std::string& text, std::vector<std::pair<std::string, std::string>> overrides = {}) {
  return ParsePipelineYaml(text, "p.yaml", "/tmp", overrides, BuiltinSteps());
}

TEST(YamlPipelineTest, BuildsStepsWithDefaultInputsAndParameters) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::string text = "name: demo\nparams:\n  src: " + Penguins() +
                           "\n  out: /tmp/x\nsteps:\n"
                           "  - read: ${src}\n"
                           "  - combine_per_key: {keys: species, aggregates: {n: count_all(), m: mean(body_mass_g)}}\n"
                           "  - write: {path: '${out}', format: jsonl}\n";
  auto loaded = Parse(text, {{"out", "/tmp/y"}});
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->name, "demo");
  EXPECT_EQ(loaded->params.at("out"), "/tmp/y");
  const auto& nodes = loaded->pipeline->nodes();
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[1].name, "combine_per_key");
  EXPECT_EQ(nodes[1].inputs, std::vector<int>{0});
  EXPECT_EQ(nodes[1].schema->ToString(), Schema::Make({Field::Make("species", int64(), false), Field::Make("n", int64()),
                                                       Field::Make("m", float64())})->ToString());
  EXPECT_EQ(nodes[2].sink.output, "/tmp/y");
  auto plan = MakePlan(*loaded->pipeline);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->stages.size(), 2u);
}

TEST(YamlPipelineTest, ErrorsNameLineColumnAndAllowedKeys) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::string head = "steps:\n  - read: " + Penguins() + "\n";
  struct Case {
    std::string text;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {head + "  - group_by_key: {keys: species, bogus: 1}\n  - write: /tmp/o\n",
       "p.yaml:3:35: step 'group_by_key': unknown key 'bogus' (allowed: keys)"},
      {head + "  - resize_everything: {}\n", "p.yaml:3:5: unknown op 'resize_everything'"},
      {head + "  - group_by_key: {keys: nope}\n", "p.yaml:3:5: step 'group_by_key': no column 'nope'"},
      {head + "  - combine_globally: {aggregates: {x: median(body_mass_g)}}\n",
       "p.yaml:3:36: step 'combine_globally', aggregates: no combiner 'median'"},
      {head + "  - write: {path: '${missing}'}\n", "p.yaml:3:19: step 'write', path: unknown parameter ${missing}"},
      {head + "  - flatten: {}\n    input: [read, nothing]\n", "p.yaml:4:19: no earlier step 'nothing'"},
      {head + "  - write: /tmp/o\n    on_error: maybe\n", "p.yaml:4:15: on_error must be fail, skip or dead_letter"},
      {"steps:\n  - read: [a\n", "p.yaml:3:1: end of sequence flow not found"},
      {"stepz: []\n", "p.yaml:1:1: unknown key 'stepz' (allowed: name, description, params, steps)"},
      {head + "  - to_example: {format: jpeg, quality: 200}\n", "step 'to_example', quality: JPEG quality: 1..100"},
      // Durations, top-level and nested, through the one parser (StepArgs::Duration).
      {"steps:\n  - watch: {path: /tmp, event_time: ts, out_of_orderness: 5x}\n",
       "p.yaml:2:59: step 'watch', out_of_orderness: '5x' is not a duration"},
      {head + "  - window: {fixed: {size: 10q}, event_time: year}\n", "step 'window', fixed: '10q' is not a duration"},
      {head + "  - window: {sessions: {gap: 0s}, event_time: year}\n", "step 'window', sessions: must be longer than 0 ms"},
      {head + "  - text_template: {output: p, template: '{species}{@run}'}\n",
       "step 'text_template', template: no run value '{@run}' (there is {@generation})"},
  };
  for (const Case& c : cases) {
    auto loaded = Parse(c.text);
    ASSERT_FALSE(loaded.ok()) << c.text;
    EXPECT_NE(loaded.status().message().find(c.expected), std::string::npos)
        << "got: " << loaded.status().message() << "\nwanted: " << c.expected;
  }
  auto unknown_param = Parse(head + "  - write: /tmp/o\n", {{"threads", "2"}});
  ASSERT_FALSE(unknown_param.ok());
  EXPECT_NE(unknown_param.status().message().find("no parameter 'threads' (parameters: none)"), std::string::npos);
}

TEST(YamlPipelineTest, UserStepsRegisteredByNameRunFromYaml) {
  RECFLOW_REQUIRE_TESTDATA();
  testing::ScratchDir dir;
  StepRegistry registry = BuiltinSteps();
  // A user DoFn: body mass in kilograms from grams, with its own `factor` argument.
  ASSERT_TRUE(registry
                  .Add(StepType{"to_kg", "grams to kilograms", "", 1, 1,
                                [](StepContext& ctx) -> Result<std::optional<PCollection>> {
                                  ASSIGN_OR_RETURN(double factor, ctx.args->Double("factor", 1000.0));
                                  return ctx.pipeline->MapRows(
                                      ctx.name, ctx.input(), {Field::Make("mass_kg", float64())},
                                      [factor](const RowView& row, RowEmitter& out) -> Status {
                                        ASSIGN_OR_RETURN(RowValue grams, row.Get("body_mass_g"));
                                        out.Emit({std::get<double>(grams) / factor});
                                        return Status::OK();
                                      },
                                      ctx.options);
                                }})
                  .ok());
  EXPECT_FALSE(registry.Add(StepType{"to_kg", "", "", 1, 1, nullptr}).ok());
  const std::string text = "steps:\n  - read: " + Penguins() + "\n  - to_kg: {factor: 2}\n" +
                           "  - combine_globally: {aggregates: {total: sum(mass_kg), grams: sum(body_mass_g)}}\n" +
                           "  - write: {path: '" + dir.File("out") + "', format: jsonl}\n";
  auto loaded = ParsePipelineYaml(text, "p.yaml", "/tmp", {}, registry);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  auto result = RunPipeline(ExecContext::Defaults(), *loaded->pipeline, RunOptions::Defaults(), nullptr);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  auto source = dataset::OpenInputs({dir.File("out")}, dataset::InputOptions{});
  ASSERT_TRUE(source.ok());
  auto units = testing::DecodeAllUnits(**source);
  ASSERT_TRUE(units.ok());
  const RecordBatch& row = *(*units)[0].batch;
  EXPECT_DOUBLE_EQ(row.column_data(0)->GetValues<double>(1)[0] * 2, row.column_data(1)->GetValues<double>(1)[0]);
}

TEST(YamlPipelineTest, TextTemplateAddsTheRunGenerationFromGeneration1On) {
  RECFLOW_REQUIRE_TESTDATA();
  auto loaded = Parse("steps:\n  - read: " + Penguins() +
                      "\n  - text_template: {output: path, template: '{species}{@generation}.tif'}\n" +
                      "  - write: /tmp/o\n");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  const Node& read = loaded->pipeline->node(0);
  const Node& text = loaded->pipeline->node(1);
  auto source = read.input->Open(LocalFileSystem::Instance());
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto units = testing::DecodeAllUnits(**source);
  ASSERT_TRUE(units.ok()) << units.status().ToString();
  const ElementBatch input{(*units)[0].batch, {}};
  // The names a run of each generation gives the first row (species 0): generation 0's without a generation.
  std::vector<std::string> names;
  for (const int64_t generation : {0, 1, 12}) {
    RunFiles files(LocalFileSystem::Instance(), StopToken());
    files.set_generation(generation);
    ops::RowErrors errors;
    const SideInputs none;
    ProcessContext ctx(&none, &input, 0, &errors, &text.schema, &files);
    auto out = text.fn->Process(*input.data, ctx);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    names.emplace_back(BinaryValue(*out->batch->column_data(out->batch->num_columns() - 1), 0));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"0.tif", "0-g1.tif", "0-g12.tif"}));
}

}  // namespace
}  // namespace recflow::pipeline
