// Tests of ChunkedIndices: every layout cut into chunks (with a gap in the numbering) gives what Take of the whole gives.
#include "recflow/columnar/chunked_take.h"

#include <gtest/gtest.h>

#include "recflow/columnar/equals.h"
#include "recflow/columnar/take.h"
#include "recflow/columnar/validate.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow {
namespace {

// The whole array's element `i` sits at number i + (i >= cut ? kGap : 0) of the chunks [0, cut) and [cut, length).
constexpr int64_t kGap = 100;

TEST(ChunkedTakeTest, EveryLayoutCutInTwoGivesWhatTakeOfTheWholeGives) {
  for (const auto& [name, data] : testing::SampleArrays()) {
    SCOPED_TRACE(name);
    if (data->length < 2) continue;
    const int64_t cut = data->length / 2;
    const std::vector<std::shared_ptr<ArrayData>> chunks = {data->Slice(0, cut), data->Slice(cut, data->length - cut)};
    const std::vector<int64_t> starts = {0, cut + kGap};
    const std::vector<int64_t> lengths = {cut, data->length - cut};
    const int64_t last = data->length - 1;
    // In chunk order, out of it (with repeats), and nothing.
    for (const std::vector<int64_t>& whole : {std::vector<int64_t>{0, cut - 1, cut, last}, std::vector<int64_t>{last, 0, last, cut, 0},
                                              std::vector<int64_t>{}}) {
      std::vector<int64_t> numbers;
      for (int64_t i : whole) numbers.push_back(i >= cut ? i + kGap : i);
      auto plan = ChunkedIndices::Make(starts, lengths, numbers);
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      auto got = plan->Take(chunks, data->type);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      ASSERT_TRUE(ValidateFull(**got).ok()) << ValidateFull(**got).ToString();
      auto want = Take(*data, whole);
      ASSERT_TRUE(want.ok());
      EXPECT_TRUE(ArrayEquals(**got, **want));
    }
  }
}

TEST(ChunkedTakeTest, AnIndexInNoChunkIsRefusedNamingIt) {
  const std::vector<int64_t> starts = {0, 10};
  const std::vector<int64_t> lengths = {5, 5};
  for (int64_t outside : {-1, 5, 9, 15}) {
    const std::vector<int64_t> indices = {0, outside};
    auto plan = ChunkedIndices::Make(starts, lengths, indices);
    ASSERT_EQ(plan.status().code(), StatusCode::kInvalidArgument) << outside;
    EXPECT_NE(plan.status().message().find("index " + std::to_string(outside) + " (position 1)"), std::string::npos)
        << plan.status().message();
  }
}

TEST(ChunkedTakeTest, NoChunksGiveAnEmptyArrayOfTheType) {
  auto plan = ChunkedIndices::Make({}, {}, {});
  ASSERT_TRUE(plan.ok());
  auto got = plan->Take({}, utf8());
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ((*got)->length, 0);
  EXPECT_TRUE((*got)->type->Equals(*utf8()));
}

TEST(ChunkedTakeTest, TakeColumnsTakesTheChosenColumnsOfBatchesInTheirOrder) {
  std::vector<FieldPtr> fields;
  std::vector<std::shared_ptr<ArrayData>> whole;
  for (const auto& [name, data] : testing::SampleArrays()) {
    if (data->length != 3 || fields.size() == 3) continue;
    fields.push_back(Field::Make(name, data->type));
    whole.push_back(data);
  }
  ASSERT_EQ(fields.size(), 3u);
  const SchemaPtr schema = Schema::Make(fields);
  auto all = RecordBatch::Make(schema, 3, whole);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  const std::vector<std::shared_ptr<RecordBatch>> batches = {(*all)->Slice(0, 1), (*all)->Slice(1, 2)};
  const std::vector<int64_t> starts = {0, 1 + kGap}, lengths = {1, 2};
  const std::vector<int64_t> whole_rows = {2, 0, 1, 2};
  std::vector<int64_t> numbers;
  for (int64_t i : whole_rows) numbers.push_back(i >= 1 ? i + kGap : i);
  auto plan = ChunkedIndices::Make(starts, lengths, numbers);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  const std::vector<int> columns = {2, 0};
  auto got = plan->TakeColumns(batches, *schema, columns);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), 2u);
  for (size_t i = 0; i < columns.size(); ++i) {
    auto want = Take(*whole[static_cast<size_t>(columns[i])], whole_rows);
    ASSERT_TRUE(want.ok());
    EXPECT_TRUE(ArrayEquals(*(*got)[i], **want)) << fields[static_cast<size_t>(columns[i])]->name();
  }
}

}  // namespace
}  // namespace recflow
