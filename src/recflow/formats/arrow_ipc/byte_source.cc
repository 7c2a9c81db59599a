// ByteSource over a Buffer (zero-copy slices) and over an InputStream (chunked reads).
#include <algorithm>
#include <cstdint>

#include "recflow/formats/arrow_ipc/byte_source_internal.h"
#include "recflow/formats/arrow_ipc/framing.h"

namespace recflow::arrow_ipc {
namespace {

bool IsAligned(const uint8_t* p) { return reinterpret_cast<uintptr_t>(p) % kMessageAlignment == 0; }

class BufferSource final : public ByteSource {
 public:
  BufferSource(std::shared_ptr<Buffer> data, std::string name, int64_t base)
      : data_(std::move(data)), name_(std::move(name)), base_(base) {}

  Result<std::shared_ptr<Buffer>> Read(int64_t n, bool aligned) override {
    const int64_t take = std::clamp<int64_t>(n, 0, data_->size() - pos_);
    ASSIGN_OR_RETURN(auto slice, Buffer::Slice(data_, pos_, take));
    pos_ += take;
    if (aligned && !IsAligned(slice->data())) return Buffer::CopyOf(slice->span());
    return slice;
  }
  int64_t position() const override { return base_ + pos_; }
  const std::string& name() const override { return name_; }

 private:
  std::shared_ptr<Buffer> data_;
  std::string name_;
  int64_t base_;
  int64_t pos_ = 0;
};

class StreamSource final : public ByteSource {
 public:
  explicit StreamSource(std::unique_ptr<InputStream> in) : in_(std::move(in)) {}

  // BufferBuilder memory is 64-byte aligned, so `aligned` needs nothing more.
  Result<std::shared_ptr<Buffer>> Read(int64_t n, bool /*aligned*/) override {
    BufferBuilder builder;
    int64_t total = 0;
    while (total < n) {
      const int64_t want = std::min(n - total, kStreamReadChunk);
      RETURN_NOT_OK(builder.Resize(total + want));
      ASSIGN_OR_RETURN(const int64_t got, ReadFully(*in_, builder.mutable_data() + total, want));
      total += got;
      pos_ += got;
      if (got < want) break;
    }
    RETURN_NOT_OK(builder.Resize(total));
    return builder.Finish();
  }
  int64_t position() const override { return pos_; }
  const std::string& name() const override { return in_->name(); }

 private:
  std::unique_ptr<InputStream> in_;
  int64_t pos_ = 0;
};

}  // namespace

std::unique_ptr<ByteSource> ByteSource::FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                   int64_t base_offset) {
  return std::make_unique<BufferSource>(std::move(data), std::move(name), base_offset);
}

std::unique_ptr<ByteSource> ByteSource::FromStream(std::unique_ptr<InputStream> in) {
  return std::make_unique<StreamSource>(std::move(in));
}

}  // namespace recflow::arrow_ipc
