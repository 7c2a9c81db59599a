// A read built with a schema settled before (YamlLoadOptions::read_schemas, what a Dask task gets from its driver)
// opens no file while the pipeline is built, writes what the read that inferred the schema writes, and fails naming
// the step when its files no longer read with that schema.
#include <gtest/gtest.h>

#include <string>

#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/step_registry.h"
#include "recflow/pipeline/yaml_pipeline.h"

namespace recflow::pipeline {
namespace {

constexpr const char* kPipeline = R"(
params: {out: out}
steps:
  - read: {path: table.csv}
  - filter: "id > 1"
  - write: {path: "${out}", format: jsonl, shards: 1}
)";

Result<YamlPipeline> Build(const std::shared_ptr<FileSystem>& file_system, const std::string& out,
                           std::map<std::string, SchemaPtr> read_schemas = {}) {
  YamlLoadOptions options;
  options.file_system = file_system;
  options.read_schemas = std::move(read_schemas);
  ASSIGN_OR_RETURN(YamlPipeline loaded, ParsePipelineYaml(kPipeline, "p.yaml", "/mem", {{"out", out}}, BuiltinSteps(),
                                                          options));
  RETURN_NOT_OK(loaded.pipeline->status());
  return loaded;
}

Status RunOn(const std::shared_ptr<FileSystem>& file_system, const Pipeline& pipeline) {
  ExecContext context = ExecContext::Defaults();
  context.file_system = file_system;
  return RunPipeline(context, pipeline, RunOptions::Defaults(), nullptr).status();
}

// A memory file system holding /mem/table.csv with `csv`.
std::shared_ptr<MemoryFileSystem> WithTable(const std::string& csv) {
  auto memory = std::make_shared<MemoryFileSystem>();
  EXPECT_TRUE(memory->CreateDirectories("/mem").ok());
  EXPECT_TRUE(memory->WriteSmallFile("/mem/table.csv", csv, false).ok());
  return memory;
}

std::string Text(MemoryFileSystem& memory, const std::string& path) {
  auto data = memory.ReadWholeFile(path);
  return data.ok() ? std::string((*data)->view()) : data.status().ToString();
}

TEST(SettledReadTest, ASettledReadOpensNothingWhenBuiltAndWritesWhatTheInferringReadWrites) {
  auto memory = WithTable("id,name,score\n1,a,0.5\n2,,1.5\n3,c,\n");
  auto inferring = Build(memory, "inferred");
  ASSERT_TRUE(inferring.ok()) << inferring.status().ToString();
  const SchemaPtr schema = inferring->pipeline->node(0).schema;
  ASSERT_TRUE(RunOn(memory, *inferring->pipeline).ok());

  auto faults = std::make_shared<FaultInjectingFileSystem>(memory);
  faults->FailNth(FsOperation::kOpenRead, 1);  // any file opened to read while building fails the build
  auto settled = Build(faults, "settled", {{"read", schema}});
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  EXPECT_FALSE(faults->fired()) << "the build opened a file";
  EXPECT_TRUE(settled->pipeline->node(0).schema->Equals(*schema, true));
  faults->Clear();
  const Status run = RunOn(faults, *settled->pipeline);
  ASSERT_TRUE(run.ok()) << run.ToString();
  EXPECT_EQ(Text(*memory, "/mem/settled/part-00000-of-00001.jsonl"),
            Text(*memory, "/mem/inferred/part-00000-of-00001.jsonl"));
  EXPECT_EQ(Text(*memory, "/mem/settled/part-00000-of-00001.jsonl"),
            "{\"id\":2,\"name\":null,\"score\":1.5}\n{\"id\":3,\"name\":\"c\",\"score\":null}\n");
}

TEST(SettledReadTest, FilesThatNoLongerReadWithTheSettledSchemaFailTheRunNamingTheStep) {
  auto memory = WithTable("id,name\n1,a\n2,b\n");
  auto inferring = Build(memory, "out");
  ASSERT_TRUE(inferring.ok()) << inferring.status().ToString();
  const SchemaPtr schema = inferring->pipeline->node(0).schema;
  ASSERT_TRUE(memory->WriteSmallFile("/mem/table.csv", "id,name\nx,a\n2,b\n", false).ok());  // id is text now
  auto settled = Build(memory, "out", {{"read", schema}});
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  const Status run = RunOn(memory, *settled->pipeline);
  EXPECT_EQ(run.code(), StatusCode::kDataError) << run.ToString();
  EXPECT_NE(run.ToString().find("step 'read' reads /mem/table.csv with the schema"), std::string::npos)
      << run.ToString();
  EXPECT_NE(run.ToString().find("not the one settled before"), std::string::npos) << run.ToString();
  EXPECT_FALSE(*memory->Exists("/mem/out"));
}

}  // namespace
}  // namespace recflow::pipeline
