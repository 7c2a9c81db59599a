// Tests for partition discovery (layouts, type inference, nulls) and constant partition columns.
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

TEST(PartitionColumnsTest, BuildsConstantColumns) {
  const auto schema = Schema::Make({Field::Make("year", int64(), false), Field::Make("score", float64(), true),
                                    Field::Make("city", utf8(), true), Field::Make("none", utf8(), true)});
  auto columns = MakePartitionColumns(*schema, {int64_t{2024}, 2.5, std::string("x/y"), std::monostate()}, 3);
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  ASSERT_EQ(columns->size(), 4u);
  for (int c = 0; c < 4; ++c) {
    const ArrayData& column = *(*columns)[static_cast<size_t>(c)];
    EXPECT_TRUE(column.type->Equals(*schema->field(c)->type()));
    EXPECT_EQ(column.length, 3);
    EXPECT_TRUE(ValidateFull(column).ok()) << ValidateFull(column).ToString();
  }
  const ArrayData& year = *(*columns)[0];
  const ArrayData& score = *(*columns)[1];
  const ArrayData& city = *(*columns)[2];
  const ArrayData& none = *(*columns)[3];
  for (int64_t row = 0; row < 3; ++row) {
    EXPECT_EQ(year.GetValues<int64_t>(1)[row], 2024);
    EXPECT_EQ(score.GetValues<double>(1)[row], 2.5);
    const int32_t* offsets = city.GetValues<int32_t>(1);
    const auto* data = reinterpret_cast<const char*>(city.buffers[2]->data());
    EXPECT_EQ(std::string(data + offsets[row], static_cast<size_t>(offsets[row + 1] - offsets[row])), "x/y");
  }
  EXPECT_EQ(year.null_count, 0);
  EXPECT_EQ(city.null_count, 0);
  EXPECT_EQ(none.null_count, 3);

  auto empty = MakePartitionColumns(*schema, {int64_t{1}, 0.0, std::string(), std::monostate()}, 0);
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ((*empty)[0]->length, 0);
}

TEST(PartitionColumnsTest, DiscoveredValuesFitTheDiscoveredSchema) {
  auto found = DiscoverOne({"1", "__HIVE_DEFAULT_PARTITION__"});
  for (const auto& file_values : found.values) {
    auto columns = MakePartitionColumns(*found.schema, file_values, 2);
    ASSERT_TRUE(columns.ok()) << columns.status().ToString();
    EXPECT_TRUE(ValidateFull(*(*columns)[0]).ok());
  }
}

TEST(PartitionColumnsTest, MismatchesAreRefused) {
  const auto schema = Schema::Make({Field::Make("year", int64(), false)});
  auto wrong_type = MakePartitionColumns(*schema, {std::string("2024")}, 1);
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.status().code(), StatusCode::kTypeError);
  EXPECT_EQ(wrong_type.status().context().field, "year");
  auto null_in_non_nullable = MakePartitionColumns(*schema, {std::monostate()}, 1);
  EXPECT_EQ(null_in_non_nullable.status().code(), StatusCode::kTypeError);
  EXPECT_EQ(MakePartitionColumns(*schema, {}, 1).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(MakePartitionColumns(*schema, {int64_t{1}}, -1).status().code(), StatusCode::kInvalidArgument);
  const auto bool_schema = Schema::Make({Field::Make("flag", boolean())});
  EXPECT_EQ(MakePartitionColumns(*bool_schema, {int64_t{1}}, 1).status().code(), StatusCode::kTypeError);
  const auto text_schema = Schema::Make({Field::Make("t", utf8())});
  EXPECT_EQ(MakePartitionColumns(*text_schema, {std::string(1000, 'x')}, int64_t{1} << 40).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::dataset
