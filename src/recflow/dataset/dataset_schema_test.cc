// Tests for the schema file: round trip, hostile files, merging, and how commits write and check it.
#include "recflow/dataset/dataset_schema.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "recflow/dataset/commit.h"
#include "recflow/dataset/commit_testing.h"
#include "recflow/testing/testdata.h"

namespace recflow::dataset {
namespace {

namespace fs = std::filesystem;
using testing::ReadTree;
using testing::Tree;
using testing::WriteFile;
using testing::WriteTree;

SchemaPtr Rows(bool zip_nullable = false, DataTypePtr zip_type = utf8()) {
  return Schema::Make({Field::Make("id", int64(), false),
                       Field::Make("zip", dictionary(int32(), std::move(zip_type)), zip_nullable),
                       Field::Make("tags", list(utf8()), true)});
}

TEST(DatasetSchemaTest, RecordsEveryColumnWithPartitionColumnsAsTheirValues) {
  const DatasetSchema schema = DatasetSchema::Of(*Rows(), {"zip"});
  EXPECT_EQ(schema.partition_by, std::vector<std::string>{"zip"});
  EXPECT_EQ(schema.fields, (std::vector<RecordedField>{{"id", "int64", false}, {"zip", "utf8", false},
                                                       {"tags", "list<utf8>", true}}));
  EXPECT_EQ(schema.ToJson(),
            R"({"recflow_dataset_schema":1,"partition_by":["zip"],"fields":[{"name":"id","type":"int64","nullable":false},)"
            R"({"name":"zip","type":"utf8","nullable":false},{"name":"tags","type":"list<utf8>","nullable":true}]})"
            "\n");
  auto back = DatasetSchema::FromJson(schema.ToJson(), "s.json");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->fields, schema.fields);
  EXPECT_EQ(back->partition_by, schema.partition_by);
  auto partitions = back->PartitionSchema("s.json");
  ASSERT_TRUE(partitions.ok());
  EXPECT_TRUE((*partitions)->Equals(*Schema::Make({Field::Make("zip", utf8(), false)})));
}

TEST(DatasetSchemaTest, NamesThatAreNotUtf8RoundTripAsLatin1) {
  const std::string name = "caf\xE9";
  const DatasetSchema schema = DatasetSchema::Of(*Schema::Make({Field::Make(name, int64())}), {});
  EXPECT_EQ(schema.fields[0].name, "caf\xC3\xA9");
  EXPECT_EQ(RecordedName(name), "caf\xC3\xA9");
  EXPECT_EQ(RecordedName("caf\xC3\xA9"), "caf\xC3\xA9");
  auto back = DatasetSchema::FromJson(schema.ToJson(), "s.json");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->fields, schema.fields);
}

TEST(DatasetSchemaTest, HostileFilesAreDataErrorsNamingTheFile) {
  for (const char* bad : {"", "[]", "{", R"({"recflow_dataset_schema": 2, "partition_by": [], "fields": []})",
                          R"({"recflow_dataset_schema": 1, "fields": []})",
                          R"({"recflow_dataset_schema": 1, "partition_by": [], "fields": [], "x": 1})",
                          R"({"recflow_dataset_schema": 1, "partition_by": [1], "fields": []})",
                          R"({"recflow_dataset_schema": 1, "partition_by": ["p"], "fields": []})",
                          R"({"recflow_dataset_schema": 1, "partition_by": [], "fields": [{"name": "a", "type": "int64"}]})",
                          R"({"recflow_dataset_schema": 1, "partition_by": [], "fields": [{"name": "", "type": "int64", "nullable": true}]})",
                          R"({"recflow_dataset_schema": 1, "partition_by": ["a", "a"], "fields": [{"name": "a", "type": "int64", "nullable": true}]})",
                          R"({"recflow_dataset_schema": 1, "partition_by": [], "fields": [{"name": "a", "type": "int64", "nullable": true}, {"name": "a", "type": "utf8", "nullable": true}]})"}) {
    auto parsed = DatasetSchema::FromJson(bad, "/d/_recflow_schema.json");
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), StatusCode::kDataError) << bad;
    EXPECT_EQ(parsed.status().context().file, "/d/_recflow_schema.json") << bad;
  }
  auto listed = DatasetSchema::FromJson(
      R"({"recflow_dataset_schema": 1, "partition_by": ["a"], "fields": [{"name": "a", "type": "list<utf8>", "nullable": true}]})",
      "s.json");
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->PartitionSchema("s.json").status().code(), StatusCode::kDataError);
}

TEST(DatasetSchemaTest, MergeWidensNullabilityAndRefusesOtherDifferences) {
  const DatasetSchema dataset = DatasetSchema::Of(*Rows(false), {"zip"});
  auto merged = dataset.Merge(DatasetSchema::Of(*Rows(true), {"zip"}), "out");
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  EXPECT_TRUE(merged->fields[1].nullable);
  const auto refused = [&](const DatasetSchema& job, const std::string& needle) {
    auto st = dataset.Merge(job, "out").status();
    EXPECT_EQ(st.code(), StatusCode::kDataError);
    EXPECT_NE(st.message().find(needle), std::string::npos) << st.ToString();
    EXPECT_NE(st.message().find("'out'"), std::string::npos) << st.ToString();
  };
  refused(DatasetSchema::Of(*Rows(false, int64()), {"zip"}), "'zip' of type utf8, the rows' is 'zip' of type int64");
  refused(DatasetSchema::Of(*Rows(), {"id"}), "partitioned by [zip], the rows by [id]");
  refused(DatasetSchema::Of(*Schema::Make({Field::Make("id", int64(), false), Field::Make("zip", utf8(), false)}), {"zip"}),
          "it has columns (id: int64, zip: utf8, tags: list<utf8>), the rows (id: int64, zip: utf8)");
}

class SchemaCommitTest : public ::testing::Test {
 protected:
  std::string Output() const { return dir_.File("out"); }
  std::string SchemaFile() const { return Output() + "/_recflow_schema.json"; }

  Status RunJob(SaveMode mode, const SchemaPtr& rows, const Tree& files) {
    CommitOptions options = CommitOptions::Defaults();
    options.schema = DatasetSchema::Of(*rows, {"zip"});
    ASSIGN_OR_RETURN(auto job, DatasetCommitter::Begin(Output(), mode, options));
    for (const auto& [rel, content] : files) WriteFile(*job->NewFilePath(rel), content);
    return job->Commit();
  }

  DatasetSchema Recorded() const { return **ReadDatasetSchema(*LocalFileSystem::Instance(), Output()); }

  recflow::testing::ScratchDir dir_;
};

TEST_F(SchemaCommitTest, EveryCommitWritesTheSchemaAndAppendsMergeIt) {
  ASSERT_TRUE(RunJob(SaveMode::kErrorIfExists, Rows(false), {{"zip=007/f", "1"}}).ok());
  EXPECT_EQ(Recorded().fields, DatasetSchema::Of(*Rows(false), {"zip"}).fields);
  ASSERT_TRUE(RunJob(SaveMode::kAppend, Rows(true), {{"zip=7/g", "2"}}).ok());
  EXPECT_TRUE(Recorded().fields[1].nullable);
  ASSERT_TRUE(RunJob(SaveMode::kOverwritePartitions, Rows(false), {{"zip=7/h", "3"}}).ok());
  EXPECT_TRUE(Recorded().fields[1].nullable) << "narrowed while zip=007 may hold nulls";
  ASSERT_TRUE(RunJob(SaveMode::kOverwrite, Rows(false, int64()), {{"zip=7/h", "3"}}).ok());
  EXPECT_EQ(Recorded().fields[1], (RecordedField{"zip", "int64", false}));
}

TEST_F(SchemaCommitTest, RowsThatDoNotMatchTheDatasetAreRefusedBeforeAnythingIsWritten) {
  ASSERT_TRUE(RunJob(SaveMode::kErrorIfExists, Rows(), {{"zip=007/f", "1"}}).ok());
  const Tree before = ReadTree(Output(), false);
  CommitOptions options = CommitOptions::Defaults();
  options.schema = DatasetSchema::Of(*Rows(false, int64()), {"zip"});
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kAppend, options);
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().code(), StatusCode::kDataError);
  EXPECT_EQ(fs::directory_iterator(dir_.path())->path(), fs::path(Output())) << "staging was created";
  EXPECT_EQ(ReadTree(Output(), false), before);
}

TEST_F(SchemaCommitTest, ASchemaThatChangedSinceBeginIsRefusedAtCommit) {
  ASSERT_TRUE(RunJob(SaveMode::kErrorIfExists, Rows(), {{"zip=007/f", "1"}}).ok());
  CommitOptions options = CommitOptions::Defaults();
  options.schema = DatasetSchema::Of(*Rows(), {"zip"});
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kAppend, options);
  ASSERT_TRUE(job.ok());
  WriteFile(*(*job)->NewFilePath("zip=8/f"), "2");
  ASSERT_TRUE(RunJob(SaveMode::kOverwrite, Rows(false, int64()), {{"zip=9/f", "3"}}).ok());  // another writer
  const Tree before = ReadTree(Output(), false);
  EXPECT_EQ((*job)->Commit().code(), StatusCode::kDataError);
  EXPECT_EQ(ReadTree(Output(), false), before);
}

TEST_F(SchemaCommitTest, ADatasetWithoutASchemaFileGetsNoneFromAnAppend) {
  WriteTree(Output(), {{"_SUCCESS", ""}, {"zip=1/part-0", "written by Spark"}});
  ASSERT_TRUE(RunJob(SaveMode::kAppend, Rows(), {{"zip=007/f", "1"}}).ok());
  EXPECT_FALSE(fs::exists(SchemaFile())) << "it would claim types for files it never saw";
  ASSERT_TRUE(RunJob(SaveMode::kOverwrite, Rows(), {{"zip=007/f", "1"}}).ok());
  EXPECT_TRUE(fs::exists(SchemaFile()));
}

}  // namespace
}  // namespace recflow::dataset
