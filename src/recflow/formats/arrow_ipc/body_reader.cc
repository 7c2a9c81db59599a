// BodyReader::Next: slicing, realigning, decompressing and byte-swapping one body buffer.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "recflow/columnar/element_access.h"
#include "recflow/formats/arrow_ipc/body_compression_internal.h"
#include "recflow/formats/arrow_ipc/body_reader_internal.h"

namespace recflow::arrow_ipc {
namespace {

/// Slack a writer may add behind a buffer's last value (Arrow pads allocations to 64 bytes).
constexpr int64_t kPaddingSlack = 64;

void ReverseInPlace(uint8_t* p, int width) { std::reverse(p, p + width); }

/// Bytes of the uncompressed-length prefix of a compressed buffer.
constexpr int64_t kLengthPrefixSize = 8;

/// The uncompressed-length prefix of a compressed buffer (little-endian, as all IPC metadata);
/// std::nullopt when the buffer is shorter than the prefix.
std::optional<int64_t> LengthPrefix(const Buffer& buffer) {
  if (buffer.size() < kLengthPrefixSize) return std::nullopt;
  int64_t length = 0;
  std::memcpy(&length, buffer.data(), kLengthPrefixSize);
  return length;
}

/// A DataError about buffer `index` of `batch` in `message`, at the buffer's byte offset in the input.
Status BufferError(const Message& message, const RecordBatchDesc& batch, int64_t index, const std::string& what) {
  return message.Error("buffer " + std::to_string(index) + ": " + what,
                       message.body_offset + batch.buffers[static_cast<size_t>(index)].offset);
}

/// A little-endian copy of big-endian values.
Result<std::shared_ptr<Buffer>> SwappedCopy(const Buffer& in, const ValueShape& shape) {
  BufferBuilder out;
  RETURN_NOT_OK(out.Append(in.data(), in.size()));
  uint8_t* p = out.mutable_data();
  const int64_t values = in.size() / shape.size;  // a trailing partial value is left as is
  for (int64_t v = 0; v < values; ++v) {
    uint8_t* value = p + v * shape.size;
    if (shape.views) {
      ReverseInPlace(value, 4);
      int32_t size;
      std::memcpy(&size, value, sizeof(size));
      if (size > kInlineViewBytes) {
        ReverseInPlace(value + 8, 4);
        ReverseInPlace(value + 12, 4);
      }
      continue;
    }
    for (int i = 0; i < shape.num_parts; ++i) {
      ReverseInPlace(value, shape.parts[i]);
      value += shape.parts[i];
    }
  }
  return out.Finish();
}

}  // namespace

ValueShape ValueShape::Parts(std::array<int8_t, 3> parts, int num_parts) {
  ValueShape shape{0, parts, num_parts};
  for (int i = 0; i < num_parts; ++i) shape.size += parts[i];
  return shape;
}

int64_t ValueShape::alignment() const {
  int64_t widest = 1;
  for (int i = 0; i < num_parts; ++i) widest = std::max<int64_t>(widest, parts[i]);
  return std::min<int64_t>(widest, 8);
}

int64_t SaturatingBytes(int64_t count, int64_t width) {
  int64_t bytes = 0;
  if (count < 0 || __builtin_mul_overflow(count, width, &bytes)) return std::numeric_limits<int64_t>::max();
  return bytes;
}

Status CheckDecompressedSize(const Message& message, const RecordBatchDesc& batch, int64_t max_bytes) {
  if (!batch.compression) return Status::OK();
  int64_t total = 0;
  for (size_t i = 0; i < batch.buffers.size(); ++i) {
    const BufferDesc& desc = batch.buffers[i];
    if (desc.length == 0) continue;
    const auto error = [&](const std::string& what) {
      return BufferError(message, batch, static_cast<int64_t>(i), what);
    };
    ASSIGN_OR_RETURN(std::shared_ptr<Buffer> buffer, Buffer::Slice(message.body, desc.offset, desc.length));
    const std::optional<int64_t> prefix = LengthPrefix(*buffer);
    if (!prefix) return error("compressed buffer shorter than its length prefix");
    if (*prefix == -1) continue;
    if (*prefix < 0) return error("negative uncompressed length " + std::to_string(*prefix));
    const std::optional<int64_t> stated =
        FrameContentSize(*batch.compression, buffer->span().subspan(kLengthPrefixSize));
    if (stated && *stated != *prefix) {
      return error("the frame header says it expands to " + std::to_string(*stated) + " bytes, the length prefix " +
                   std::to_string(*prefix));
    }
    if (__builtin_add_overflow(total, *prefix, &total) || total > max_bytes) {
      return message.Error("the compressed buffers expand to more than " + std::to_string(max_bytes) +
                               " bytes (the reader's max_decompressed_batch_bytes)",
                           message.offset);
    }
  }
  return Status::OK();
}

Status BodyReader::Error(const std::string& what) const {
  return BufferError(message_, batch_, next_ - 1, what);
}

Result<std::shared_ptr<Buffer>> BodyReader::Next(const ValueShape& shape, int64_t max_size) {
  if (next_ >= static_cast<int64_t>(batch_.buffers.size())) {
    return message_.Error("the batch has fewer buffers than its fields need", message_.offset);
  }
  const BufferDesc& desc = batch_.buffers[static_cast<size_t>(next_++)];
  if (desc.length == 0) return std::shared_ptr<Buffer>();
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> buffer, Buffer::Slice(message_.body, desc.offset, desc.length));
  if (batch_.compression) {
    const std::optional<int64_t> prefix = LengthPrefix(*buffer);
    if (!prefix) return Error("compressed buffer shorter than its length prefix");
    const int64_t uncompressed = *prefix;
    if (uncompressed == -1) {
      ASSIGN_OR_RETURN(buffer, Buffer::Slice(buffer, kLengthPrefixSize, buffer->size() - kLengthPrefixSize));
    } else {
      const int64_t cap = max_size > std::numeric_limits<int64_t>::max() - kPaddingSlack ? max_size
                                                                                          : max_size + kPaddingSlack;
      if (uncompressed < 0 || uncompressed > cap) {
        return Error("uncompressed length " + std::to_string(uncompressed) + " outside 0.." + std::to_string(cap) +
                     ", what the layout can use");
      }
      auto decompressed =
          DecompressBodyBuffer(*batch_.compression, buffer->span().subspan(kLengthPrefixSize), uncompressed);
      if (!decompressed.ok()) return Error(decompressed.status().message());
      buffer = std::move(decompressed).ValueUnsafe();
    }
  }
  if (big_endian_ && shape.num_parts > 0) return SwappedCopy(*buffer, shape);
  if (reinterpret_cast<uintptr_t>(buffer->data()) % static_cast<uintptr_t>(shape.alignment()) != 0) {
    return Buffer::CopyOf(buffer->span());
  }
  return buffer;
}

}  // namespace recflow::arrow_ipc
