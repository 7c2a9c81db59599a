// Tests of DecodeUnit and NextSourceUnit (an allocation failure is a status, never an exception) and of decoded units.
#include "recflow/formats/source.h"

#include <gtest/gtest.h>

#include <new>

#include "recflow/columnar/builder.h"

namespace recflow {
namespace {

class ThrowingUnit final : public SourceUnit {
 public:
  Result<DecodedUnit> Decode() override { throw std::bad_alloc(); }
  int64_t input_bytes() const override { return 1234; }
};

class ThrowingSource final : public Source {
 public:
  const SchemaPtr& schema() const override { return schema_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override { throw std::bad_alloc(); }
  const std::string& name() const override { return name_; }

 private:
  SchemaPtr schema_ = Schema::Make({});
  std::string name_ = "huge.tfrecord";
};

TEST(SourceTest, AllocationFailuresBecomeOutOfMemoryStatuses) {
  ThrowingUnit unit;
  const Status decoded = DecodeUnit(unit).status();
  EXPECT_EQ(decoded.code(), StatusCode::kOutOfMemory);
  EXPECT_NE(decoded.message().find("1234 bytes"), std::string::npos) << decoded.ToString();
  ThrowingSource source;
  const Status next = NextSourceUnit(source).status();
  EXPECT_EQ(next.code(), StatusCode::kOutOfMemory);
  EXPECT_EQ(next.context().file, "huge.tfrecord");
}

TEST(SourceTest, DecodedUnitsHandOverTheirBatchBytesAndToken) {
  Int64Builder values;
  ASSERT_TRUE(values.Append(7).ok() && values.Append(8).ok());
  auto batch = RecordBatch::Make(Schema::Make({Field::Make("x", int64())}), 2, {*values.Finish()});
  ASSERT_TRUE(batch.ok());
  const FlowToken mark{FlowToken::Kind::kWatermark, 42};
  std::unique_ptr<SourceUnit> unit = MakeBatchUnit(*batch, 99, mark);
  EXPECT_EQ(unit->input_bytes(), 99);
  ASSERT_TRUE(unit->token().has_value());
  EXPECT_EQ(unit->token()->time, 42);
  auto decoded = DecodeUnit(*unit);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->batch, *batch);
  EXPECT_EQ(decoded->input_records, 2);
  // A decoded unit keeps what it was given: skipped records count among its input records.
  DecodedUnit given{*batch, {SkippedRecord{"bad", Status::DataError("no")}}, 3};
  std::unique_ptr<SourceUnit> ready = MakeDecodedUnit(std::move(given), 5);
  EXPECT_FALSE(ready->token().has_value());
  auto back = DecodeUnit(*ready);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->input_records, 3);
  ASSERT_EQ(back->skipped.size(), 1u);
  EXPECT_EQ(back->skipped[0].text, "bad");
}

}  // namespace
}  // namespace recflow
