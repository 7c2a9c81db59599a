// YAML pipeline tests: steps, defaults, parameters and --set, side inputs, and errors that name the line, column and
// allowed keys.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace recflow::pipeline
