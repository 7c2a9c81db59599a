// MemoryPool: what Buffers and BufferBuilders hold is counted while they hold it, and the peak is kept.
#include "recflow/core/memory_pool.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "recflow/core/buffer.h"

namespace recflow {
namespace {

TEST(MemoryPoolTest, CountsWhatIsOutAndThePeak) {
  MemoryPool pool;
  uint8_t* a = pool.Allocate(100);
  uint8_t* b = pool.Allocate(1000);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % kBufferAlignment, 0u);
  EXPECT_EQ(pool.bytes_allocated(), 1100);
  pool.Free(b, 1000);
  EXPECT_EQ(pool.bytes_allocated(), 100);
  EXPECT_EQ(pool.peak_bytes(), 1100);
  pool.Free(a, 100);
  pool.Free(nullptr, 0);
  EXPECT_EQ(pool.bytes_allocated(), 0);
  EXPECT_EQ(pool.peak_bytes(), 1100);
}

TEST(MemoryPoolTest, BuffersHoldTheirBytesUntilTheLastReferenceGoes) {
  MemoryPool pool;
  {
    auto zeros = Buffer::Allocate(300, &pool);
    ASSERT_TRUE(zeros.ok());
    const uint8_t bytes[5] = {1, 2, 3, 4, 5};
    auto copy = Buffer::CopyOf(bytes, &pool);
    ASSERT_TRUE(copy.ok());
    EXPECT_EQ(pool.bytes_allocated(), 305);
    auto slice = Buffer::Slice(*zeros, 10, 20);
    ASSERT_TRUE(slice.ok());
    zeros->reset();
    EXPECT_EQ(pool.bytes_allocated(), 305) << "a slice keeps its parent's memory";
  }
  EXPECT_EQ(pool.bytes_allocated(), 0);
  EXPECT_EQ(pool.peak_bytes(), 305);
}

TEST(MemoryPoolTest, ABuilderCountsItsCapacityAndHandsItToTheBufferItFinishes) {
  MemoryPool pool;
  std::shared_ptr<Buffer> finished;
  {
    BufferBuilder builder(&pool);
    ASSERT_TRUE(builder.Resize(100).ok());
    EXPECT_EQ(pool.bytes_allocated(), builder.capacity());
    ASSERT_TRUE(builder.Resize(1000).ok());  // grows: the old block goes back
    EXPECT_EQ(pool.bytes_allocated(), builder.capacity());
    const int64_t capacity = builder.capacity();
    finished = builder.Finish();
    EXPECT_EQ(finished->size(), 1000);
    EXPECT_EQ(pool.bytes_allocated(), capacity);
    BufferBuilder moved(std::move(builder));  // empty now; moving keeps the pool
    ASSERT_TRUE(moved.Resize(10).ok());
    EXPECT_EQ(pool.bytes_allocated(), capacity + moved.capacity());
  }
  EXPECT_GT(pool.bytes_allocated(), 0);
  finished.reset();
  EXPECT_EQ(pool.bytes_allocated(), 0);
}

TEST(MemoryPoolTest, TheDefaultPoolIsWhereBuffersComeFromUnlessGivenAnother) {
  MemoryPool* pool = DefaultMemoryPool();
  const int64_t before = pool->bytes_allocated();
  auto buffer = Buffer::Allocate(4096);
  ASSERT_TRUE(buffer.ok());
  EXPECT_EQ(pool->bytes_allocated(), before + 4096);
  EXPECT_GE(pool->peak_bytes(), before + 4096);
  buffer->reset();
  EXPECT_EQ(pool->bytes_allocated(), before);
}

TEST(MemoryPoolTest, ThreadsAllocatingAtOnceLeaveAnExactCount) {
  MemoryPool pool;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&pool] {
      for (int i = 0; i < 10000; ++i) {
        BufferBuilder builder(&pool);
        EXPECT_TRUE(builder.Append("abcdefgh", 8).ok());
        auto buffer = builder.Finish();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(pool.bytes_allocated(), 0);
  EXPECT_GE(pool.peak_bytes(), kBufferAlignment);
  EXPECT_LE(pool.peak_bytes(), 4 * kBufferAlignment);
}

TEST(MemoryPoolTest, AScopedPoolIsTheThreadsCurrentOneUntilItEnds) {
  MemoryPool outer, inner;
  EXPECT_EQ(CurrentMemoryPool(), DefaultMemoryPool());
  std::shared_ptr<Buffer> kept;
  {
    const ScopedMemoryPool scope(&outer);
    auto a = Buffer::Allocate(100);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(outer.bytes_allocated(), 100);
    {
      const ScopedMemoryPool nested(&inner);
      BufferBuilder builder;  // takes the pool current when it is made
      ASSERT_TRUE(builder.Append("x", 1).ok());
      kept = builder.Finish();
      EXPECT_EQ(inner.bytes_allocated(), kBufferAlignment);
      // Another thread has its own current pool.
      std::thread([] { EXPECT_EQ(CurrentMemoryPool(), DefaultMemoryPool()); }).join();
    }
    EXPECT_EQ(CurrentMemoryPool(), &outer);
    auto copy = Buffer::CopyOf(kept->span());
    ASSERT_TRUE(copy.ok());
    EXPECT_EQ(outer.bytes_allocated(), 101);
  }
  EXPECT_EQ(CurrentMemoryPool(), DefaultMemoryPool());
  EXPECT_EQ(outer.bytes_allocated(), 0);
  EXPECT_EQ(outer.peak_bytes(), 101);
  kept.reset();  // freed into the pool it came from, whatever is current now
  EXPECT_EQ(inner.bytes_allocated(), 0);
}

}  // namespace
}  // namespace recflow
