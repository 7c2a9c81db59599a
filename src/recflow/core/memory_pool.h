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

/// The process-wide pool every buffer comes from unless another is given or in effect.
MemoryPool* DefaultMemoryPool();

/// The pool Buffer::Allocate, Buffer::CopyOf and new BufferBuilders on this thread use when
/// given none: the pool of the innermost ScopedMemoryPool alive on this thread, else
/// DefaultMemoryPool(). One thread-local read per allocation.
MemoryPool* CurrentMemoryPool();

/// Makes `pool` (never null) this thread's CurrentMemoryPool() while it lives, then restores the
/// one before: what a run sets on each thread for the time it works on one of its units (an
/// ExecContext's pool, set once per unit, never per record). The pool must outlive every buffer
/// allocated from it.
class ScopedMemoryPool {
 public:
  explicit ScopedMemoryPool(MemoryPool* pool);
  ~ScopedMemoryPool();
  ScopedMemoryPool(const ScopedMemoryPool&) = delete;
  ScopedMemoryPool& operator=(const ScopedMemoryPool&) = delete;

 private:
  MemoryPool* previous_;
};

}  // namespace recflow
