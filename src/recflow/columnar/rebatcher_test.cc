// Tests of Rebatcher: TensorFlow I/O's batch modes, rows kept in order across input batches.
#include "recflow/columnar/rebatcher.h"

#include <gtest/gtest.h>

#include "recflow/columnar/array.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow {
namespace {

using testing::BufferOf;

std::shared_ptr<RecordBatch> Ints(int64_t first, int64_t n) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < n; ++i) values.push_back(first + i);
  auto schema = Schema::Make({Field::Make("x", int64(), false)});
  return *RecordBatch::Make(schema, n, {ArrayData::Make(int64(), n, {nullptr, BufferOf(values)}, 0)});
}

std::vector<int64_t> SizesOf(BatchMode mode, int64_t batch_size) {
  Rebatcher rebatcher(batch_size, mode);
  std::vector<int64_t> sizes;
  int64_t next_value = 0;
  const auto take = [&](const std::vector<std::shared_ptr<RecordBatch>>& batches) {
    for (const auto& b : batches) {
      sizes.push_back(b->num_rows());
      Int64Array values(b->column_data(0));
      for (int64_t i = 0; i < b->num_rows(); ++i) EXPECT_EQ(values.Value(i), next_value++);  // order kept
    }
  };
  int64_t first = 0;
  for (int64_t n : {5, 3, 7, 0, 1}) {
    take(*rebatcher.Add(Ints(first, n)));
    first += n;
  }
  take(*rebatcher.Finish());
  return sizes;
}

TEST(RebatcherTest, BatchModesGiveTensorflowIoSizes) {
  EXPECT_EQ(SizesOf(BatchMode::kKeepRemainder, 4), (std::vector<int64_t>{4, 4, 4, 4}));
  EXPECT_EQ(SizesOf(BatchMode::kKeepRemainder, 5), (std::vector<int64_t>{5, 5, 5, 1}));
  EXPECT_EQ(SizesOf(BatchMode::kDropRemainder, 5), (std::vector<int64_t>{5, 5, 5}));
  EXPECT_EQ(SizesOf(BatchMode::kAuto, 4), (std::vector<int64_t>{5, 3, 7, 1}));
  EXPECT_EQ(SizesOf(BatchMode::kKeepRemainder, 100), (std::vector<int64_t>{16}));
  EXPECT_EQ(SizesOf(BatchMode::kDropRemainder, 100), (std::vector<int64_t>{}));
  EXPECT_FALSE(ParseBatchMode("sometimes").ok());
}

}  // namespace
}  // namespace recflow
