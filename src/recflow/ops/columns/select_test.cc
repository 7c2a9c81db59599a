// Tests of Select, Drop, Rename and ParseTypeName.
#include "recflow/ops/columns/select.h"

#include <gtest/gtest.h>

#include "recflow/ops/columns/columns_test_util_internal.h"
#include "recflow/ops/columns/type_name.h"

namespace recflow::ops {
namespace {

using testing::BatchOf;
using testing::Numbers;
using testing::Strings;

std::shared_ptr<RecordBatch> Sample() {
  return BatchOf({{"a", Numbers<int64_t>({1, 2, std::nullopt})},
                  {"b", Strings({"x", std::nullopt, "z"})},
                  {"c", Numbers<double>({0.5, 1.5, 2.5})}});
}

TEST(SelectTest, ReordersAndShares) {
  auto batch = Sample();
  auto out = Select(*batch, {"c", "a"});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)->schema()->ToString(), "c: float64\na: int64");
  EXPECT_EQ((*out)->column_data(0), batch->column_data(2));
  EXPECT_EQ((*out)->num_rows(), 3);
}

TEST(SelectTest, MissingColumnListsAvailable) {
  auto out = Select(*Sample(), {"a", "nope"});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("no column 'nope' (columns: a, b, c)"), std::string::npos) << out.status().ToString();
  EXPECT_FALSE(Select(*Sample(), {"a", "a"}).ok());
}

TEST(SelectTest, EmptyBatchAndEmptySelection) {
  auto empty = Sample()->Slice(0, 0);
  auto out = Select(*empty, {"b"});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->num_rows(), 0);
  auto none = Select(*Sample(), {});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ((*none)->num_columns(), 0);
}

TEST(DropTest, KeepsOrder) {
  auto out = Drop(*Sample(), {"b"});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->schema()->ToString(), "a: int64\nc: float64");
  auto missing = Drop(*Sample(), {"zz"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("drop: no column 'zz'"), std::string::npos);
}

TEST(RenameTest, RenamesAndChecksCollisions) {
  auto out = Rename(*Sample(), {{"a", "age"}, {"c", "score"}});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->schema()->ToString(), "age: int64\nb: utf8\nscore: float64");
  // Swapping two names is fine; colliding with an untouched column is not.
  EXPECT_TRUE(Rename(*Sample(), {{"a", "b"}, {"b", "a"}}).ok());
  EXPECT_FALSE(Rename(*Sample(), {{"a", "b"}}).ok());
  EXPECT_FALSE(Rename(*Sample(), {{"a", ""}}).ok());
  EXPECT_FALSE(Rename(*Sample(), {{"a", "x"}, {"a", "y"}}).ok());
  auto missing = Rename(*Sample(), {{"q", "r"}});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("(columns: a, b, c)"), std::string::npos);
}

TEST(TypeNameTest, ParsesNames) {
  const std::pair<const char*, DataTypePtr> cases[] = {
      {"int64", int64()},
      {" float32 ", float32()},
      {"string", utf8()},
      {"bytes", binary()},
      {"bool", boolean()},
      {"uint16", uint16()},
      {"double", float64()},
      {"date32", date32()},
      {"timestamp", timestamp(TimeUnit::kMicro)},
      {"timestamp[ms]", timestamp(TimeUnit::kMilli)},
      {"timestamp[ns, tz=UTC]", timestamp(TimeUnit::kNano, "UTC")},
      {"list<float32>", list(float32())},
      {"list<list<string>>", list(list(utf8()))},
  };
  for (const auto& [text, type] : cases) {
    auto parsed = ParseTypeName(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
    EXPECT_TRUE((*parsed)->Equals(*type)) << text << " -> " << (*parsed)->ToString();
  }
  // What DataType::ToString writes parses back.
  for (const DataTypePtr& type : {timestamp(TimeUnit::kSecond, "UTC"), list(int8()), date32()}) {
    auto parsed = ParseTypeName(type->ToString());
    ASSERT_TRUE(parsed.ok()) << type->ToString();
    EXPECT_TRUE((*parsed)->Equals(*type));
  }
  for (const char* bad : {"int65", "list<int64", "timestamp[hours]", "", "list<>"}) {
    EXPECT_FALSE(ParseTypeName(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace recflow::ops
