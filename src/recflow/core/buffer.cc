// Buffer implementations: owned aligned memory, memory maps, borrowed memory and slices.
#include "recflow/core/buffer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace recflow {

namespace {

// Memory of `allocated` bytes from `pool`, of which the first `size` are the buffer's.
class OwnedBuffer final : public Buffer {
 public:
  OwnedBuffer(uint8_t* data, int64_t size, int64_t allocated, MemoryPool* pool)
      : Buffer(data, size), allocated_(allocated), pool_(pool) {}
  ~OwnedBuffer() override { pool_->Free(const_cast<uint8_t*>(data_), allocated_); }

 private:
  int64_t allocated_;
  MemoryPool* pool_;
};

class StringBuffer final : public Buffer {
 public:
  explicit StringBuffer(std::string s) : Buffer(nullptr, 0), bytes_(std::move(s)) {
    data_ = reinterpret_cast<const uint8_t*>(bytes_.data());
    size_ = static_cast<int64_t>(bytes_.size());
  }

 private:
  std::string bytes_;
};

class BorrowedBuffer final : public Buffer {
 public:
  BorrowedBuffer(const void* data, int64_t size, std::shared_ptr<const void> owner)
      : Buffer(static_cast<const uint8_t*>(data), size), owner_(std::move(owner)) {}

 private:
  std::shared_ptr<const void> owner_;
};

class MappedBuffer final : public Buffer {
 public:
  MappedBuffer(void* map, int64_t size) : Buffer(static_cast<const uint8_t*>(map), size) {}
  ~MappedBuffer() override {
    if (size_ > 0) munmap(const_cast<uint8_t*>(data_), static_cast<size_t>(size_));
  }
  bool mapped() const override { return true; }
};

class SliceBuffer final : public Buffer {
 public:
  SliceBuffer(std::shared_ptr<Buffer> parent, int64_t offset, int64_t length)
      : Buffer(parent->data() + offset, length), parent_(std::move(parent)) {}
  const Buffer& root() const override { return parent_->root(); }

 private:
  std::shared_ptr<Buffer> parent_;
};

std::string ErrnoText() { return std::strerror(errno); }

}  // namespace

Result<std::shared_ptr<Buffer>> Buffer::Allocate(int64_t size, MemoryPool* pool) {
  if (size < 0) return Status::InvalidArgument("negative buffer size " + std::to_string(size));
  uint8_t* data = pool->Allocate(size);
  if (data == nullptr) return Status::OutOfMemory("cannot allocate " + std::to_string(size) + " bytes");
  std::memset(data, 0, static_cast<size_t>(size));
  return std::shared_ptr<Buffer>(std::make_shared<OwnedBuffer>(data, size, size, pool));
}

Result<std::shared_ptr<Buffer>> Buffer::CopyOf(std::span<const uint8_t> bytes, MemoryPool* pool) {
  const auto size = static_cast<int64_t>(bytes.size());
  uint8_t* data = pool->Allocate(size);
  if (data == nullptr) return Status::OutOfMemory("cannot allocate " + std::to_string(size) + " bytes");
  if (size > 0) std::memcpy(data, bytes.data(), bytes.size());
  return std::shared_ptr<Buffer>(std::make_shared<OwnedBuffer>(data, size, size, pool));
}

std::shared_ptr<Buffer> Buffer::FromString(std::string bytes) {
  return std::make_shared<StringBuffer>(std::move(bytes));
}

std::shared_ptr<Buffer> Buffer::Wrap(const void* data, int64_t size, std::shared_ptr<const void> owner) {
  return std::make_shared<BorrowedBuffer>(data, size, std::move(owner));
}

Result<std::shared_ptr<Buffer>> Buffer::MapFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound(path + ": no such file");
    return Status::IOError(path + ": cannot open: " + ErrnoText());
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    Status s = Status::IOError(path + ": cannot stat: " + ErrnoText());
    ::close(fd);
    return s;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument(path + ": not a regular file");
  }
  const auto size = static_cast<int64_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return std::shared_ptr<Buffer>(std::make_shared<MappedBuffer>(nullptr, 0));
  }
  void* map = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return Status::IOError(path + ": cannot map: " + ErrnoText());
  ::madvise(map, static_cast<size_t>(size), MADV_SEQUENTIAL);
  return std::shared_ptr<Buffer>(std::make_shared<MappedBuffer>(map, size));
}

Result<std::shared_ptr<Buffer>> Buffer::Slice(const std::shared_ptr<Buffer>& parent, int64_t offset,
                                              int64_t length) {
  if (offset < 0 || length < 0 || offset > parent->size() || length > parent->size() - offset) {
    return Status::InvalidArgument("slice [" + std::to_string(offset) + ", +" + std::to_string(length) +
                                   ") outside a buffer of " + std::to_string(parent->size()) + " bytes");
  }
  return std::shared_ptr<Buffer>(std::make_shared<SliceBuffer>(parent, offset, length));
}

// A builder holding nothing does not call its pool: an idle builder (a decoder kept for the next unit) may outlive
// the pool it was made under.
BufferBuilder::~BufferBuilder() {
  if (data_ != nullptr) pool_->Free(data_, capacity_);
}

BufferBuilder::BufferBuilder(BufferBuilder&& other) noexcept
    : pool_(other.pool_), data_(other.data_), size_(other.size_), capacity_(other.capacity_) {
  other.data_ = nullptr;
  other.size_ = other.capacity_ = 0;
}

BufferBuilder& BufferBuilder::operator=(BufferBuilder&& other) noexcept {
  if (this != &other) {
    pool_->Free(data_, capacity_);
    pool_ = other.pool_;
    data_ = other.data_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }
  return *this;
}

Status BufferBuilder::Resize(int64_t new_size) {
  if (new_size < 0) return Status::InvalidArgument("negative size");
  if (new_size > capacity_) RETURN_NOT_OK(Grow(new_size));
  if (new_size > size_) std::memset(data_ + size_, 0, static_cast<size_t>(new_size - size_));
  size_ = new_size;
  return Status::OK();
}

Status BufferBuilder::Grow(int64_t min_capacity) {
  int64_t new_capacity = capacity_ < kBufferAlignment ? kBufferAlignment : capacity_;
  while (new_capacity < min_capacity) new_capacity *= 2;
  if (capacity_ == 0 && size_hint_ > new_capacity) new_capacity = size_hint_;
  uint8_t* fresh = pool_->Allocate(new_capacity);
  if (fresh == nullptr) return Status::OutOfMemory("cannot grow a buffer to " + std::to_string(new_capacity) + " bytes");
  if (size_ > 0) std::memcpy(fresh, data_, static_cast<size_t>(size_));
  pool_->Free(data_, capacity_);
  data_ = fresh;
  capacity_ = new_capacity;
  return Status::OK();
}

std::shared_ptr<Buffer> BufferBuilder::Finish() {
  // Zero the padding up to the next alignment boundary so exported buffers never expose garbage.
  const int64_t padded = std::min(capacity_, (size_ + kBufferAlignment - 1) / kBufferAlignment * kBufferAlignment);
  if (data_ != nullptr && padded > size_) std::memset(data_ + size_, 0, static_cast<size_t>(padded - size_));
  uint8_t* data = data_;
  if (data == nullptr) data = pool_->Allocate(0);  // capacity_ is 0 then, as is what it counts
  auto out = std::make_shared<OwnedBuffer>(data, size_, capacity_, pool_);
  size_hint_ = size_;
  data_ = nullptr;
  size_ = capacity_ = 0;
  return out;
}

}  // namespace recflow
