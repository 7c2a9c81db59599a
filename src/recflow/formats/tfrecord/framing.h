// TFRecord framing constants and helpers; the format is described in docs/formats/tfrecord.md.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "recflow/core/crc32c.h"
#include "recflow/core/status.h"

namespace recflow::tfrecord {

/// Bytes of the little-endian uint64 data length that opens every record.
inline constexpr int64_t kLengthSize = 8;
/// Bytes of a masked CRC32C (after the length and after the data).
inline constexpr int64_t kCrcSize = 4;
/// Bytes before the data: length + masked CRC32C of the 8 length bytes.
inline constexpr int64_t kHeaderSize = kLengthSize + kCrcSize;
/// Bytes after the data: masked CRC32C of the data.
inline constexpr int64_t kFooterSize = kCrcSize;
/// Framing bytes around each record's data.
inline constexpr int64_t kFramingOverhead = kHeaderSize + kFooterSize;
/// The constant added when masking a CRC (the value TensorFlow and LevelDB use).
inline constexpr uint32_t kMaskDelta = 0xa282ead8u;
/// The largest record length recflow accepts (2 GiB - 1): larger records cannot be parsed as
/// protocol buffers and cannot be addressed by Arrow's int32 offsets. A header announcing more is
/// a DataError, so no length from a file can make the reader reserve more than this.
inline constexpr uint64_t kMaxRecordLength = (uint64_t{1} << 31) - 1;

/// Masks a CRC so that a CRC stored inside checksummed data does not checksum to a fixed value.
constexpr uint32_t MaskCrc(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }
/// Inverts MaskCrc.
constexpr uint32_t UnmaskCrc(uint32_t masked) {
  const uint32_t rotated = masked - kMaskDelta;
  return (rotated >> 17) | (rotated << 15);
}

/// Loads a little-endian uint64 from unaligned memory.
inline uint64_t LoadLittleEndian64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}
/// Loads a little-endian uint32 from unaligned memory.
inline uint32_t LoadLittleEndian32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}
/// Stores a little-endian uint64 to unaligned memory.
inline void StoreLittleEndian64(uint64_t v, uint8_t* p) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  std::memcpy(p, &v, sizeof(v));
}
/// Stores a little-endian uint32 to unaligned memory.
inline void StoreLittleEndian32(uint32_t v, uint8_t* p) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  std::memcpy(p, &v, sizeof(v));
}

/// The masked CRC32C of `n` bytes, as stored in the framing.
inline uint32_t MaskedCrc32c(const uint8_t* data, size_t n) { return MaskCrc(Crc32c(data, n)); }

/// True when the kHeaderSize bytes at `header` carry a length whose masked CRC matches.
inline bool HeaderCrcMatches(const uint8_t* header) {
  return MaskedCrc32c(header, kLengthSize) == LoadLittleEndian32(header + kLengthSize);
}

/// Writes the kHeaderSize header bytes for a record of `length` data bytes.
inline void EncodeHeader(uint64_t length, uint8_t* header) {
  StoreLittleEndian64(length, header);
  StoreLittleEndian32(MaskedCrc32c(header, kLengthSize), header + kLengthSize);
}

/// Writes the kFooterSize footer bytes that follow `n` data bytes: their masked CRC32C.
inline void EncodeFooter(const uint8_t* data, size_t n, uint8_t* footer) {
  StoreLittleEndian32(MaskedCrc32c(data, n), footer);
}

/// InvalidArgument when a record of `length` data bytes exceeds kMaxRecordLength.
inline Status CheckRecordLength(uint64_t length) {
  if (length <= kMaxRecordLength) return Status::OK();
  return Status::InvalidArgument("record of " + std::to_string(length) + " bytes exceeds the maximum of " +
                                 std::to_string(kMaxRecordLength));
}

/// Appends `data` to `*out` as one framed record (header, data, footer). The caller has checked
/// its length with CheckRecordLength.
inline void AppendFramedRecord(std::string_view data, std::string* out) {
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(kFramingOverhead) + data.size());
  auto* header = reinterpret_cast<uint8_t*>(out->data()) + start;
  uint8_t* payload = header + kHeaderSize;
  EncodeHeader(data.size(), header);
  if (!data.empty()) std::memcpy(payload, data.data(), data.size());
  EncodeFooter(payload, data.size(), payload + data.size());
}

}  // namespace recflow::tfrecord
