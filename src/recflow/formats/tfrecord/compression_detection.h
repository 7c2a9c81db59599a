// Deciding whether a TFRecord input is uncompressed, GZIP or ZLIB from its first bytes and name.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "recflow/core/compression.h"

namespace recflow::tfrecord {

/// Bytes of an input that DetectCompression looks at (a whole TFRecord header).
inline constexpr int64_t kDetectionHeadSize = 12;

/// The compression of a TFRecord input whose first bytes are `head` (up to kDetectionHeadSize)
/// and whose path or name is `name`. In order: an empty input or a valid TFRecord header (its
/// length CRC matches) is uncompressed; the GZIP magic is GZIP; a valid ZLIB header is ZLIB;
/// otherwise the suffix decides (".gz", ".zz"/".zlib"). The header test comes first because a
/// record length such as 40056 (bytes 78 9c) is also a valid ZLIB header.
Compression DetectCompression(std::span<const uint8_t> head, std::string_view name);

}  // namespace recflow::tfrecord
