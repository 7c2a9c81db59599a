// Tests of RecordBatch: Make's checks, Slice, ValidateFull, Equals.
#include <gtest/gtest.h>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/record_batch.h"

namespace recflow {
namespace {

std::shared_ptr<ArrayData> Ints(std::vector<int64_t> values, bool null_first = false) {
  Int64Builder b;
  for (size_t i = 0; i < values.size(); ++i) {
    Status st = null_first && i == 0 ? b.AppendNull() : b.Append(values[i]);
    EXPECT_TRUE(st.ok());
  }
  return *b.Finish();
}

std::shared_ptr<ArrayData> Strings(std::vector<std::string> values) {
  BinaryBuilder b(utf8());
  for (const auto& v : values) EXPECT_TRUE(b.Append(v).ok());
  return *b.Finish();
}

SchemaPtr TestSchema() { return Schema::Make({Field::Make("id", int64(), false), Field::Make("name", utf8())}); }

TEST(RecordBatchTest, MakeAndAccess) {
  auto batch = RecordBatch::Make(TestSchema(), 3, {Ints({1, 2, 3}), Strings({"a", "b", "c"})});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ((*batch)->num_rows(), 3);
  EXPECT_EQ((*batch)->num_columns(), 2);
  EXPECT_EQ((*batch)->column_data(1)->type->id(), TypeId::kUtf8);
  EXPECT_TRUE((*batch)->ValidateFull().ok());
  EXPECT_EQ((*batch)->ToString(), "id: int64 not null = [1, 2, 3]\nname: utf8 = [\"a\", \"b\", \"c\"]\n");
}

TEST(RecordBatchTest, MakeRejectsMismatches) {
  auto wrong_length = RecordBatch::Make(TestSchema(), 3, {Ints({1, 2}), Strings({"a", "b", "c"})});
  EXPECT_EQ(wrong_length.status().code(), StatusCode::kInvalidArgument);
  auto wrong_type = RecordBatch::Make(TestSchema(), 3, {Strings({"1", "2", "3"}), Strings({"a", "b", "c"})});
  EXPECT_EQ(wrong_type.status().code(), StatusCode::kTypeError);
  auto wrong_count = RecordBatch::Make(TestSchema(), 3, {Ints({1, 2, 3})});
  EXPECT_FALSE(wrong_count.ok());
  auto missing = RecordBatch::Make(TestSchema(), 3, {Ints({1, 2, 3}), nullptr});
  EXPECT_FALSE(missing.ok());
  EXPECT_FALSE(RecordBatch::Make(nullptr, 0, {}).ok());
}

TEST(RecordBatchTest, ValidateFullChecksNullability) {
  auto batch = *RecordBatch::Make(TestSchema(), 2, {Ints({1, 2}, /*null_first=*/true), Strings({"a", "b"})});
  Status st = batch->ValidateFull();
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_EQ(st.context().field, "id");
  EXPECT_TRUE(batch->Slice(1, 1)->ValidateFull().ok());
}

TEST(RecordBatchTest, SliceAndEquals) {
  auto batch = *RecordBatch::Make(TestSchema(), 4, {Ints({1, 2, 3, 4}), Strings({"a", "b", "c", "d"})});
  auto sliced = batch->Slice(1, 2);
  EXPECT_EQ(sliced->num_rows(), 2);
  auto expected = *RecordBatch::Make(TestSchema(), 2, {Ints({2, 3}), Strings({"b", "c"})});
  EXPECT_TRUE(sliced->Equals(*expected));
  EXPECT_FALSE(batch->Slice(0, 2)->Equals(*expected));
  EXPECT_EQ(batch->Slice(3, 10)->num_rows(), 1);
  EXPECT_TRUE(batch->Equals(*batch->Slice(0, 4)));
}

}  // namespace
}  // namespace recflow
