// Tests for partition discovery: layouts, type inference, nulls, types recorded in a schema file.
#include "recflow/dataset/partition_discovery.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "recflow/columnar/validate.h"
#include "recflow/dataset/inputs.h"
#include "recflow/dataset/partition_path.h"
#include "recflow/testing/testdata.h"

namespace recflow::dataset {
namespace {

namespace fs = std::filesystem;

/// Files "base/<rel>" for each relative path.
std::vector<std::string> Under(const std::string& base, const std::vector<std::string>& rels) {
  std::vector<std::string> files;
  for (const std::string& rel : rels) files.push_back(base + "/" + rel);
  return files;
}

/// The single partition column discovered for one value per file (`k=<value>/f`).
DiscoveredPartitions DiscoverOne(const std::vector<std::string>& values) {
  std::vector<std::string> rels;
  for (size_t i = 0; i < values.size(); ++i) rels.push_back("k=" + values[i] + "/f" + std::to_string(i));
  auto found = DiscoverPartitions("/data", Under("/data", rels));
  EXPECT_TRUE(found.ok()) << found.status().ToString();
  return found.ok() ? *found : DiscoveredPartitions{};
}

TEST(PartitionDiscoveryTest, InfersInt64Float64AndUtf8PerColumn) {
  auto found = DiscoverPartitions(
      "/data", Under("/data", {"year=2023/score=1/city=Paris/part-0", "year=2024/score=2.5/city=x%2Fy/part-1"}));
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  ASSERT_EQ(found->schema->num_fields(), 3);
  EXPECT_TRUE(found->schema->field(0)->Equals(*Field::Make("year", int64(), false)));
  EXPECT_TRUE(found->schema->field(1)->Equals(*Field::Make("score", float64(), false)));
  EXPECT_TRUE(found->schema->field(2)->Equals(*Field::Make("city", utf8(), false)));
  ASSERT_EQ(found->values.size(), 2u);
  EXPECT_EQ(found->values[0], (std::vector<PartitionValue>{int64_t{2023}, 1.0, std::string("Paris")}));
  EXPECT_EQ(found->values[1], (std::vector<PartitionValue>{int64_t{2024}, 2.5, std::string("x/y")}));
}

TEST(PartitionDiscoveryTest, NumberForms) {
  auto ints = DiscoverOne({"+5", "-7", "007", "9223372036854775807", "-9223372036854775808"});
  EXPECT_EQ(ints.schema->field(0)->type()->id(), TypeId::kInt64);
  EXPECT_EQ(ints.values[0][0], PartitionValue(int64_t{5}));
  EXPECT_EQ(ints.values[2][0], PartitionValue(int64_t{7}));
  EXPECT_EQ(ints.values[4][0], PartitionValue(INT64_MIN));

  auto floats = DiscoverOne({"1e5", ".5", "1.", "-2.5E-3", "NaN", "-Infinity", "3"});
  EXPECT_EQ(floats.schema->field(0)->type()->id(), TypeId::kFloat64);
  EXPECT_EQ(floats.values[0][0], PartitionValue(1e5));
  EXPECT_EQ(floats.values[1][0], PartitionValue(0.5));
  EXPECT_EQ(floats.values[3][0], PartitionValue(-2.5e-3));
  EXPECT_TRUE(std::isnan(std::get<double>(floats.values[4][0])));
  EXPECT_EQ(floats.values[5][0], PartitionValue(-INFINITY));
  EXPECT_EQ(floats.values[6][0], PartitionValue(3.0));

  // Each of these keeps the column utf8 (Spark: decimal, string, string, string, date, ...).
  for (const char* text : {"9223372036854775808", "true", "1.5d", "%201", "0x10", "nan", "inf", "1e400", "1e", "-", ".",
                           "+-5", "2024-01-31", "1,5"}) {
    auto mixed = DiscoverOne({"1", text});
    EXPECT_EQ(mixed.schema->field(0)->type()->id(), TypeId::kUtf8) << text;
    EXPECT_EQ(mixed.values[0][0], PartitionValue(std::string("1"))) << text;
    EXPECT_EQ(mixed.values[1][0], PartitionValue(UnescapePathName(text))) << text;
  }
}

TEST(PartitionDiscoveryTest, DefaultPartitionIsNullAndMakesTheColumnNullable) {
  auto ints = DiscoverOne({"1", "__HIVE_DEFAULT_PARTITION__"});
  EXPECT_TRUE(ints.schema->field(0)->Equals(*Field::Make("k", int64(), true)));
  EXPECT_EQ(ints.values[1][0], PartitionValue(std::monostate()));

  auto all_null = DiscoverOne({"__HIVE_DEFAULT_PARTITION__"});
  EXPECT_TRUE(all_null.schema->field(0)->Equals(*Field::Make("k", utf8(), true)));
  EXPECT_EQ(all_null.values[0][0], PartitionValue(std::monostate()));
}

TEST(PartitionDiscoveryTest, UnpartitionedFilesGiveAnEmptySchema) {
  auto found = DiscoverPartitions("/data/", Under("/data", {"a.tfrecord", "sub/b.tfrecord"}));
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_EQ(found->schema->num_fields(), 0);
  EXPECT_EQ(found->values, (std::vector<std::vector<PartitionValue>>(2)));
}

TEST(PartitionDiscoveryTest, PlainDirectoriesBelowAndAboveThePartitionsAreAllowed) {
  auto found = DiscoverPartitions("/data", Under("/data", {"t/a=1/sub/f0", "t/a=2/f1", "./t/a=3/x/y/f2"}));
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  ASSERT_EQ(found->schema->num_fields(), 1);
  EXPECT_EQ(found->values[2][0], PartitionValue(int64_t{3}));
}

TEST(PartitionDiscoveryTest, InconsistentLayoutsNameBothFiles) {
  const std::vector<std::vector<std::string>> conflicts = {
      {"a=1/b=2/f0", "b=2/a=1/f1"},  // same keys, other order
      {"a=1/b=2/f0", "a=1/f1"},      // fewer keys
      {"a=1/f0", "f1"},              // an unpartitioned file among partitioned ones
      {"x/a=1/f0", "y/a=2/f1"},      // different directories above the partitions
      {"a=1/f0", "A=1/f1"},          // keys are case-sensitive
  };
  for (const auto& rels : conflicts) {
    auto found = DiscoverPartitions("/data", Under("/data", rels));
    ASSERT_FALSE(found.ok()) << rels[1];
    EXPECT_EQ(found.status().code(), StatusCode::kDataError);
    EXPECT_NE(found.status().message().find("/data/" + rels[0]), std::string::npos) << found.status().message();
    EXPECT_NE(found.status().message().find("/data/" + rels[1]), std::string::npos) << found.status().message();
  }
}

TEST(PartitionDiscoveryTest, MalformedDirectoriesAndForeignFilesAreErrors) {
  for (const char* rel : {"a=1/a=2/f", "=1/f", "a=/f"}) {
    auto found = DiscoverPartitions("/data", Under("/data", {rel}));
    ASSERT_FALSE(found.ok()) << rel;
    EXPECT_EQ(found.status().code(), StatusCode::kDataError) << rel;
    EXPECT_EQ(found.status().context().file, std::string("/data/") + rel);
  }
  for (const char* file : {"/elsewhere/a=1/f", "/data/../a=1/f", "relative/a=1/f", "-"}) {
    auto found = DiscoverPartitions("/data", {file});
    ASSERT_FALSE(found.ok()) << file;
    EXPECT_EQ(found.status().code(), StatusCode::kInvalidArgument) << file;
  }
}

TEST(PartitionDiscoveryTest, HostileValuesWrittenToDiskComeBackExactly) {
  testing::ScratchDir dir;
  const std::vector<std::optional<std::string>> values = {
      "../x",      "a/b", "=", "%", "..", ".", std::string("NUL\0!", 5), "\x01\x7F", "é日本", std::string(240, 'z'),
      std::nullopt, "", "%~", std::string(700, 'L'), std::string(300, '/')};
  for (size_t i = 0; i < values.size(); ++i) {
    auto rel = PartitionPath({{"v", values[i]}, {"i", std::to_string(i)}});
    ASSERT_TRUE(rel.ok()) << rel.status().ToString();
    fs::create_directories(dir.path() / *rel);
    std::ofstream(dir.path() / *rel / "part-0.tfrecord") << "x";
  }
  std::ofstream(dir.path() / "_SUCCESS") << "";
  auto files = ExpandInputs({dir.path().string()});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(files->size(), values.size());
  auto found = DiscoverPartitions(dir.path().string(), *files);
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_TRUE(found->schema->field(0)->Equals(*Field::Make("v", utf8(), true)));
  EXPECT_TRUE(found->schema->field(1)->Equals(*Field::Make("i", int64(), false)));
  for (size_t f = 0; f < files->size(); ++f) {
    const size_t i = static_cast<size_t>(std::get<int64_t>(found->values[f][1]));
    const PartitionValue expected =
        values[i].has_value() ? PartitionValue(*values[i]) : PartitionValue(std::monostate());
    EXPECT_EQ(found->values[f][0], expected) << (*files)[f];
  }
}

TEST(PartitionDiscoveryTest, LongValuesAreJoinedAndBrokenChainsNamed) {
  auto found = DiscoverPartitions("/d", Under("/d", {"a=x%+/%+y%+/%+z/b=1/f0", "a=w/b=2/plain/f1"}));
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_EQ(found->values[0], (std::vector<PartitionValue>{std::string("xyz"), int64_t{1}}));
  EXPECT_EQ(found->values[1], (std::vector<PartitionValue>{std::string("w"), int64_t{2}}));
  auto broken = DiscoverPartitions("/d", Under("/d", {"a=x%+/b=1/f0"}));
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().code(), StatusCode::kDataError);
  EXPECT_NE(broken.status().ToString().find("/d/a=x%+/b=1/f0"), std::string::npos) << broken.status().ToString();
}

TEST(PartitionColumnsTest, DiscoveredValuesFitTheDiscoveredSchema) {
  auto found = DiscoverOne({"1", "__HIVE_DEFAULT_PARTITION__"});
  for (const auto& file_values : found.values) {
    auto columns = MakePartitionColumns(*found.schema, file_values, 2);
    ASSERT_TRUE(columns.ok()) << columns.status().ToString();
    EXPECT_TRUE(ValidateFull(*(*columns)[0]).ok());
  }
}

TEST(PartitionDiscoveryTest, RecordedTypesReplaceInference) {
  const auto recorded = Schema::Make({Field::Make("zip", utf8(), false), Field::Make("n", int32(), true)});
  auto found = DiscoverPartitions("/d", Under("/d", {"zip=007/n=1/f0", "zip=7/n=-2/f1", "zip=+7/n=__HIVE_DEFAULT_PARTITION__/f2"}),
                                  recorded);
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_TRUE(found->schema->Equals(*recorded));
  EXPECT_EQ(found->values[0], (std::vector<PartitionValue>{std::string("007"), int64_t{1}}));
  EXPECT_EQ(found->values[1], (std::vector<PartitionValue>{std::string("7"), int64_t{-2}}));
  EXPECT_EQ(found->values[2], (std::vector<PartitionValue>{std::string("+7"), std::monostate()}));
  auto inferred = DiscoverPartitions("/d", Under("/d", {"zip=007/n=1/f0", "zip=7/n=2/f1", "zip=+7/n=3/f2"}));
  ASSERT_TRUE(inferred.ok());
  EXPECT_EQ(inferred->values[2][0], PartitionValue(int64_t{7})) << "without a record, Spark's inference";
}

TEST(PartitionDiscoveryTest, FilesThatDisagreeWithTheRecordAreDataErrors) {
  const auto recorded = Schema::Make({Field::Make("n", int8(), false)});
  const auto error_of = [&](const std::vector<std::string>& rels) {
    auto found = DiscoverPartitions("/d", Under("/d", rels), recorded);
    EXPECT_FALSE(found.ok());
    return found.ok() ? Status::OK() : found.status();
  };
  const Status out_of_range = error_of({"n=1/f0", "n=128/f1"});
  EXPECT_EQ(out_of_range.code(), StatusCode::kDataError);
  EXPECT_EQ(out_of_range.context().file, "/d/n=128/f1");
  EXPECT_EQ(out_of_range.context().field, "n");
  EXPECT_NE(out_of_range.message().find("'128'"), std::string::npos) << out_of_range.ToString();
  EXPECT_EQ(error_of({"n=__HIVE_DEFAULT_PARTITION__/f0"}).code(), StatusCode::kDataError);
  const Status other_key = error_of({"m=1/f0"});
  EXPECT_EQ(other_key.code(), StatusCode::kDataError);
  EXPECT_NE(other_key.message().find("[n]"), std::string::npos) << other_key.ToString();
  EXPECT_EQ(error_of({"f0"}).code(), StatusCode::kDataError);
  auto unpartitioned = DiscoverPartitions("/d", Under("/d", {"n=1/f0"}), Schema::Make({}));
  EXPECT_EQ(unpartitioned.status().code(), StatusCode::kDataError);
}

TEST(PartitionDiscoveryTest, ADatasetOfZeroRowsHasTheRecordedPartitionColumns) {
  const auto recorded = Schema::Make({Field::Make("p", utf8(), false)});
  auto found = DiscoverPartitions("/d", {}, recorded);
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_TRUE(found->schema->Equals(*recorded));
  EXPECT_TRUE(found->values.empty());
}

TEST(PartitionDiscoveryTest, ADatasetDirectoryIsTypedByItsSchemaFile) {
  testing::ScratchDir dir;
  std::ofstream(dir.path() / "_recflow_schema.json")
      << R"({"recflow_dataset_schema": 1, "partition_by": ["zip"],)"
      << R"( "fields": [{"name": "v", "type": "int64", "nullable": true}, {"name": "zip", "type": "utf8", "nullable": false}]})";
  for (const char* zip : {"007", "7"}) {
    fs::create_directories(dir.path() / (std::string("zip=") + zip));
    std::ofstream(dir.path() / (std::string("zip=") + zip) / "part-0.jsonl") << "{}";
  }
  auto files = ExpandInputs({dir.path().string()});
  ASSERT_TRUE(files.ok());
  auto found = DiscoverDatasetPartitions(dir.path().string(), *files);
  ASSERT_TRUE(found.ok()) << found.status().ToString();
  EXPECT_TRUE(found->schema->field(0)->Equals(*Field::Make("zip", utf8(), false)));
  EXPECT_EQ(found->values[0][0], PartitionValue(std::string("007")));
  std::ofstream(dir.path() / "_recflow_schema.json") << R"({"recflow_dataset_schema": 1, "fields": [})";
  auto malformed = DiscoverDatasetPartitions(dir.path().string(), *files);
  EXPECT_EQ(malformed.status().code(), StatusCode::kDataError);
  EXPECT_NE(malformed.status().ToString().find("_recflow_schema.json"), std::string::npos) << malformed.status().ToString();
}

}  // namespace
}  // namespace recflow::dataset
