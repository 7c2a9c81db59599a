// Tests of DecodeUnit and NextSourceUnit: an allocation failure is a status, never an exception.
#include "recflow/formats/source.h"

#include <gtest/gtest.h>

#include <new>

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

}  // namespace
}  // namespace recflow
