// MemoryPool: std::aligned_alloc with an atomic byte count and a compare-and-swap peak; the thread's current pool.
#include "recflow/core/memory_pool.h"

#include <cstdlib>

namespace recflow {

uint8_t* MemoryPool::Allocate(int64_t size) {
  const auto rounded = static_cast<size_t>((size + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment);
  auto* data = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, rounded == 0 ? kBufferAlignment : rounded));
  if (data == nullptr) return nullptr;
  const int64_t now = bytes_.fetch_add(size, std::memory_order_relaxed) + size;
  int64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return data;
}

void MemoryPool::Free(uint8_t* data, int64_t size) {
  if (data == nullptr) return;
  std::free(data);
  bytes_.fetch_sub(size, std::memory_order_relaxed);
}

MemoryPool* DefaultMemoryPool() {
  static MemoryPool* pool = new MemoryPool();  // never destroyed: buffers may outlive static destruction
  return pool;
}

namespace {

thread_local MemoryPool* current_pool = nullptr;  // null: the default pool

}  // namespace

MemoryPool* CurrentMemoryPool() { return current_pool != nullptr ? current_pool : DefaultMemoryPool(); }

ScopedMemoryPool::ScopedMemoryPool(MemoryPool* pool) : previous_(current_pool) { current_pool = pool; }

ScopedMemoryPool::~ScopedMemoryPool() { current_pool = previous_; }

}  // namespace recflow
