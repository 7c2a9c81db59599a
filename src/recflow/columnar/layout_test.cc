// Pins the exact bytes of built arrays to the Arrow columnar spec (C Data Interface layout).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/schema.h"

namespace recflow {
namespace {

std::vector<uint8_t> BytesOf(const std::shared_ptr<Buffer>& buffer, int64_t n) {
  EXPECT_GE(buffer->size(), n);
  return {buffer->data(), buffer->data() + n};
}

std::vector<int32_t> Int32sOf(const std::shared_ptr<Buffer>& buffer, int64_t n) {
  EXPECT_GE(buffer->size(), n * 4);
  std::vector<int32_t> out(static_cast<size_t>(n));
  std::memcpy(out.data(), buffer->data(), static_cast<size_t>(n) * 4);
  return out;
}

bool Aligned(const std::shared_ptr<Buffer>& buffer) {
  return reinterpret_cast<uintptr_t>(buffer->data()) % kBufferAlignment == 0;
}

// Arrow spec example: [1, null, 2, 4, 8] as int32.
TEST(LayoutTest, Int32WithNull) {
  Int32Builder b;
  ASSERT_TRUE(b.Append(1).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  ASSERT_TRUE(b.Append(2).ok());
  ASSERT_TRUE(b.Append(4).ok());
  ASSERT_TRUE(b.Append(8).ok());
  auto data = *b.Finish();
  ASSERT_EQ(data->buffers.size(), 2u);
  EXPECT_EQ(data->length, 5);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(data->offset, 0);
  // Validity: LSB-first, 0b00011101; padding bits zero.
  EXPECT_EQ(BytesOf(data->buffers[0], 1), std::vector<uint8_t>{0x1D});
  EXPECT_EQ(Int32sOf(data->buffers[1], 5), (std::vector<int32_t>{1, 0, 2, 4, 8}));
  EXPECT_TRUE(Aligned(data->buffers[0]));
  EXPECT_TRUE(Aligned(data->buffers[1]));
}

// Arrow spec example: ["joe", null, null, "mark"] as utf8.
TEST(LayoutTest, Utf8) {
  BinaryBuilder b(utf8());
  ASSERT_TRUE(b.Append("joe").ok());
  ASSERT_TRUE(b.AppendNulls(2).ok());
  ASSERT_TRUE(b.Append("mark").ok());
  auto data = *b.Finish();
  ASSERT_EQ(data->buffers.size(), 3u);
  EXPECT_EQ(data->null_count, 2);
  EXPECT_EQ(BytesOf(data->buffers[0], 1), std::vector<uint8_t>{0x09});  // 0b00001001
  EXPECT_EQ(Int32sOf(data->buffers[1], 5), (std::vector<int32_t>{0, 3, 3, 3, 7}));
  EXPECT_EQ(data->buffers[2]->size(), 7);
  EXPECT_EQ(data->buffers[2]->view(), "joemark");
}

// Arrow spec example: [[12, -7, 25], null, [0, -127, 127, 50], []] as list<int8>.
TEST(LayoutTest, ListOfInt8) {
  ListBuilder b(list(int8()), std::make_unique<Int8Builder>());
  auto* values = static_cast<Int8Builder*>(b.value_builder());
  const int8_t first[] = {12, -7, 25};
  const int8_t third[] = {0, -127, 127, 50};
  ASSERT_TRUE(b.Append().ok());
  ASSERT_TRUE(values->AppendValues(first, 3).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  ASSERT_TRUE(b.Append().ok());
  ASSERT_TRUE(values->AppendValues(third, 4).ok());
  ASSERT_TRUE(b.Append().ok());
  auto data = *b.Finish();
  ASSERT_EQ(data->buffers.size(), 2u);
  ASSERT_EQ(data->children.size(), 1u);
  EXPECT_EQ(BytesOf(data->buffers[0], 1), std::vector<uint8_t>{0x0D});  // 0b00001101
  EXPECT_EQ(Int32sOf(data->buffers[1], 5), (std::vector<int32_t>{0, 3, 3, 7, 7}));
  const auto& child = data->children[0];
  EXPECT_EQ(child->length, 7);
  EXPECT_EQ(child->null_count, 0);
  EXPECT_EQ(child->buffers[0], nullptr);
  EXPECT_EQ(BytesOf(child->buffers[1], 7), (std::vector<uint8_t>{12, 0xF9, 25, 0, 0x81, 127, 50}));
}

// Booleans are bit-packed like validity; a slice keeps the buffers and moves `offset`.
TEST(LayoutTest, BooleanBitsAndSliceOffset) {
  BooleanBuilder b;
  for (bool v : {true, false, true, true, false, false, false, true, true}) ASSERT_TRUE(b.Append(v).ok());
  auto data = *b.Finish();
  EXPECT_EQ(data->buffers[0], nullptr);
  EXPECT_EQ(BytesOf(data->buffers[1], 2), (std::vector<uint8_t>{0x8D, 0x01}));
  auto sliced = data->Slice(3, 5);
  EXPECT_EQ(sliced->offset, 3);
  EXPECT_EQ(sliced->buffers[1], data->buffers[1]);
}

}  // namespace
}  // namespace recflow
