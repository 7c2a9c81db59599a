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

TEST(ProjectionTest, ResolvedOnceAppliesToEveryBatchOfItsSchema) {
  auto batch = Sample();
  auto projection = Projection::Select(batch->schema(), {"c", "a"});
  ASSERT_TRUE(projection.ok()) << projection.status().ToString();
  EXPECT_EQ(projection->output_schema()->ToString(), "c: float64\na: int64");
  for (const auto& piece : {batch->Slice(0, 1), batch->Slice(1, 2)}) {
    auto out = projection->Apply(*piece);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ((*out)->schema(), projection->output_schema());
    EXPECT_EQ((*out)->num_rows(), piece->num_rows());
    EXPECT_EQ((*out)->column_data(1), piece->column_data(0));
  }
  // A batch of another schema is refused, naming both.
  auto other = BatchOf({{"c", Numbers<double>({1})}, {"a", Numbers<int64_t>({2})}});
  auto refused = projection->Apply(*other);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("select: a batch has columns (c: float64, a: int64) where the step was planned for (a: int64, b: utf8, c: float64)"),
            std::string::npos)
      << refused.status().ToString();
  auto renamed = Projection::Rename(batch->schema(), {{"b", "name"}});
  ASSERT_TRUE(renamed.ok());
  EXPECT_EQ(renamed->output_schema()->ToString(), "a: int64\nname: utf8\nc: float64");
  EXPECT_FALSE(Projection::Drop(batch->schema(), {"zz"}).ok());
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
