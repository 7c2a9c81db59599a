// Compression detection for TFRecord inputs: TFRecord header, then magic bytes, then suffix.
#include "recflow/formats/tfrecord/compression_detection.h"

#include "recflow/formats/tfrecord/framing.h"

namespace recflow::tfrecord {

Compression DetectCompression(std::span<const uint8_t> head, std::string_view name) {
  if (head.empty()) return Compression::kNone;
  if (head.size() >= static_cast<size_t>(kHeaderSize) && HeaderCrcMatches(head.data())) return Compression::kNone;
  if (LooksLikeGzip(head)) return Compression::kGzip;
  if (LooksLikeZlib(head)) return Compression::kZlib;
  return CompressionFromSuffix(name);
}

}  // namespace recflow::tfrecord
