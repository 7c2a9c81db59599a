// Buffer: immutable bytes that are owned, memory-mapped, borrowed or a slice of another Buffer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "recflow/core/memory_pool.h"
#include "recflow/core/result.h"

namespace recflow {

/// A contiguous, immutable run of bytes. Shared through std::shared_ptr; a slice keeps its
/// parent alive, so a record_view into a memory-mapped file stays valid while any slice lives.
class Buffer {
 public:
  virtual ~Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  std::span<const uint8_t> span() const { return {data_, static_cast<size_t>(size_)}; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data_), static_cast<size_t>(size_)}; }
  bool Equals(const Buffer& other) const {
    return size_ == other.size_ && (size_ == 0 || std::memcmp(data_, other.data_, size_) == 0);
  }
  /// The buffer whose memory this one shows and keeps alive: for a slice its parent's root
  /// (all of it stays alive however little the slice shows), else this buffer itself.
  virtual const Buffer& root() const { return *this; }
  /// True for a read-only map of a file (MapFile): pages the kernel reads in and drops as it
  /// needs, not heap memory held.
  virtual bool mapped() const { return false; }

  /// A new owned, zero-filled, 64-byte-aligned buffer of `size` bytes from `pool` (the thread's
  /// current pool unless given: a run's, see ScopedMemoryPool).
  static Result<std::shared_ptr<Buffer>> Allocate(int64_t size, MemoryPool* pool = CurrentMemoryPool());
  /// Copies `bytes` into a new owned buffer from `pool` (the thread's current pool unless given).
  static Result<std::shared_ptr<Buffer>> CopyOf(std::span<const uint8_t> bytes, MemoryPool* pool = CurrentMemoryPool());
  /// Takes ownership of a string's bytes (no copy of the characters).
  static std::shared_ptr<Buffer> FromString(std::string bytes);
  /// Borrows memory that stays alive and unchanged for the buffer's lifetime: the caller's
  /// promise, or while `owner` (kept by the buffer) lives.
  static std::shared_ptr<Buffer> Wrap(const void* data, int64_t size, std::shared_ptr<const void> owner = nullptr);
  /// Maps a whole file read-only. An empty file gives an empty buffer.
  static Result<std::shared_ptr<Buffer>> MapFile(const std::string& path);
  /// A view of `length` bytes at `offset` of `parent`, keeping the parent alive.
  /// Bounds are checked: an out-of-range slice is an error.
  static Result<std::shared_ptr<Buffer>> Slice(const std::shared_ptr<Buffer>& parent, int64_t offset,
                                               int64_t length);

 protected:
  Buffer(const uint8_t* data, int64_t size) : data_(data), size_(size) {}
  const uint8_t* data_;
  int64_t size_;
};

/// A growable, 64-byte-aligned byte array for building buffers; Finish() hands the bytes to an
/// immutable Buffer without copying. Its memory comes from a MemoryPool (the thread's current one
/// when the builder is made, unless given) and goes back to it when the builder, or the Buffer it finished, lets it go.
class BufferBuilder {
 public:
  BufferBuilder() = default;
  /// A builder allocating from `pool`.
  explicit BufferBuilder(MemoryPool* pool) : pool_(pool) {}
  ~BufferBuilder();
  BufferBuilder(BufferBuilder&& other) noexcept;
  BufferBuilder& operator=(BufferBuilder&& other) noexcept;
  BufferBuilder(const BufferBuilder&) = delete;
  BufferBuilder& operator=(const BufferBuilder&) = delete;

  /// Ensures capacity for `additional` more bytes.
  Status Reserve(int64_t additional) {
    if (size_ + additional <= capacity_) [[likely]] return Status::OK();
    return Grow(size_ + additional);
  }
  /// Sets the size; new bytes are zero.
  Status Resize(int64_t new_size);
  /// Drops the bytes past `size` (0 ≤ size ≤ size()); the capacity is kept.
  void Truncate(int64_t size) { size_ = std::clamp<int64_t>(size, 0, size_); }
  /// Appends bytes.
  Status Append(const void* bytes, int64_t n) {
    RETURN_NOT_OK(Reserve(n));
    if (n > 0) std::memcpy(data_ + size_, bytes, static_cast<size_t>(n));
    size_ += n;
    return Status::OK();
  }
  /// Appends a trivially copyable value.
  template <typename T>
  Status AppendValue(const T& value) {
    return Append(&value, sizeof(T));
  }
  /// Appends without a capacity check; the caller reserved first.
  void UnsafeAppend(const void* bytes, int64_t n) {
    std::memcpy(data_ + size_, bytes, static_cast<size_t>(n));
    size_ += n;
  }
  /// Grows the size by `n` bytes without writing them; the caller reserved first and must
  /// write every one of those bytes before Finish().
  void UnsafeAdvance(int64_t n) { size_ += n; }
  template <typename T>
  void UnsafeAppendValue(const T& value) {
    std::memcpy(data_ + size_, &value, sizeof(T));
    size_ += sizeof(T);
  }

  uint8_t* mutable_data() { return data_; }
  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }
  /// Forgets the contents, keeps the capacity.
  void Clear() { size_ = 0; }

  /// Moves the bytes into an immutable Buffer; the builder is empty afterwards. The next
  /// growth allocates at least the finished size at once, so a builder filling batch after
  /// batch of similar size does not double and copy its way up each time.
  std::shared_ptr<Buffer> Finish();

 private:
  Status Grow(int64_t min_capacity);
  MemoryPool* pool_ = CurrentMemoryPool();
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
  int64_t size_hint_ = 0;  // the size last finished
};

}  // namespace recflow
