// Tests of Take: every layout, repeats, reversed order, sliced inputs, bad indices.
#include "recflow/columnar/take.h"

#include <gtest/gtest.h>

#include "recflow/columnar/equals.h"
#include "recflow/columnar/validate.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow {
namespace {

TEST(TakeTest, EveryLayoutGathersTheChosenElements) {
  for (const auto& [name, data] : testing::SampleArrays()) {
    SCOPED_TRACE(name);
    const int64_t last = data->length - 1;
    const std::vector<int64_t> indices = {last, 0, last, 0};
    auto taken = Take(*data, indices);
    ASSERT_TRUE(taken.ok()) << taken.status().ToString();
    ASSERT_TRUE(ValidateFull(**taken).ok()) << ValidateFull(**taken).ToString();
    ASSERT_EQ((*taken)->length, 4);
    for (size_t i = 0; i < indices.size(); ++i) {
      EXPECT_TRUE(ArrayEquals(*(*taken)->Slice(static_cast<int64_t>(i), 1), *data->Slice(indices[i], 1))) << i;
    }
    auto none = Take(*data, {});
    ASSERT_TRUE(none.ok());
    EXPECT_EQ((*none)->length, 0);
    EXPECT_TRUE(ValidateFull(**none).ok()) << ValidateFull(**none).ToString();
  }
}

TEST(TakeTest, OutOfRangeIndicesAreRefused) {
  const auto samples = testing::SampleArrays();
  const ArrayData& data = *samples.front().second;
  const std::vector<int64_t> beyond = {data.length};
  const std::vector<int64_t> negative = {-1};
  EXPECT_EQ(Take(data, beyond).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Take(data, negative).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow
