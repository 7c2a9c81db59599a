// Tests for Buffer (owned, string, mapped, slice) and BufferBuilder.
#include "recflow/core/buffer.h"

#include <gtest/gtest.h>

#include <fstream>

#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

TEST(BufferTest, AllocateIsAlignedAndZeroed) {
  auto b = *Buffer::Allocate(100);
  EXPECT_EQ(b->size(), 100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b->data()) % kBufferAlignment, 0u);
  for (uint8_t c : b->span()) EXPECT_EQ(c, 0);
  EXPECT_FALSE(Buffer::Allocate(-1).ok());
}

TEST(BufferTest, SliceKeepsParentAliveAndChecksBounds) {
  std::shared_ptr<Buffer> slice;
  {
    auto parent = Buffer::FromString("hello, world");
    slice = *Buffer::Slice(parent, 7, 5);
  }
  EXPECT_EQ(slice->view(), "world");
  auto parent = Buffer::FromString("abc");
  EXPECT_FALSE(Buffer::Slice(parent, 2, 2).ok());
  EXPECT_FALSE(Buffer::Slice(parent, -1, 1).ok());
  EXPECT_FALSE(Buffer::Slice(parent, 4, 0).ok());
  EXPECT_TRUE(Buffer::Slice(parent, 3, 0).ok());
}

TEST(BufferTest, MapFileReadsContentsAndReportsMissingFiles) {
  testing::ScratchDir dir;
  const std::string path = dir.File("data.bin");
  { std::ofstream(path, std::ios::binary) << "mapped bytes"; }
  auto b = *Buffer::MapFile(path);
  EXPECT_EQ(b->view(), "mapped bytes");
  { std::ofstream(dir.File("empty"), std::ios::binary); }
  EXPECT_EQ((*Buffer::MapFile(dir.File("empty")))->size(), 0);
  auto missing = Buffer::MapFile(dir.File("nope"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(Buffer::MapFile(dir.path().string()).ok());
}

TEST(BufferBuilderTest, GrowsAndFinishesWithoutCopy) {
  BufferBuilder bb;
  for (int64_t i = 0; i < 1000; ++i) ASSERT_TRUE(bb.AppendValue(i).ok());
  ASSERT_TRUE(bb.Resize(bb.size() + 8).ok());
  const uint8_t* raw = bb.data();
  auto b = bb.Finish();
  EXPECT_EQ(b->data(), raw);
  EXPECT_EQ(b->size(), 1001 * 8);
  const auto* v = reinterpret_cast<const int64_t*>(b->data());
  EXPECT_EQ(v[999], 999);
  EXPECT_EQ(v[1000], 0);
  EXPECT_EQ(bb.size(), 0);
  EXPECT_EQ(BufferBuilder().Finish()->size(), 0);
}

}  // namespace
}  // namespace recflow
