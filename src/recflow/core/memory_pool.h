// MemoryPool: where Buffers and BufferBuilders get their bytes — 64-byte aligned, counted now and at the peak.
#pragma once

#include <atomic>
#include <cstdint>

namespace recflow {

/// Alignment of every buffer recflow allocates (Arrow recommends 64 bytes).
inline constexpr int64_t kBufferAlignment = 64;

/// Allocates aligned memory and counts the bytes it has out and the most it ever had. Thread-safe;
/// the count costs one atomic add per allocation and per free.
class MemoryPool {
 public:
  MemoryPool() = default;
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  /// `size` (≥ 0) bytes aligned to kBufferAlignment, with room up to the next multiple of it;
  /// nullptr when the system has no memory. Uninitialised.
  uint8_t* Allocate(int64_t size);
  /// Returns memory Allocate(size) gave, with that same `size`. Null is ignored.
  void Free(uint8_t* data, int64_t size);

  /// Bytes allocated and not freed yet.
  int64_t bytes_allocated() const { return bytes_.load(std::memory_order_relaxed); }
  /// The most bytes_allocated() has been.
  int64_t peak_bytes() const { return peak_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> bytes_{0};
  std::atomic<int64_t> peak_{0};
};

/// The process-wide pool every buffer comes from unless another is given.
MemoryPool* DefaultMemoryPool();

}  // namespace recflow
