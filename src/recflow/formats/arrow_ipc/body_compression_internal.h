// Decompression of one IPC body buffer (LZ4 frame or ZSTD), growing its output only as far as the data really expands.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "recflow/core/buffer.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/batch_desc.h"

namespace recflow::arrow_ipc {

/// Decompresses `input` (one whole LZ4 frame or ZSTD frame) that must expand to exactly
/// `uncompressed_size` bytes. The output grows geometrically as the decompressor produces
/// bytes (starting from a size proportional to the input), so a lying `uncompressed_size`
/// costs no memory beyond the data's real expansion. A corrupt frame, or one that expands to
/// a different size, is a DataError (without file context; the caller adds it).
Result<std::shared_ptr<Buffer>> DecompressBodyBuffer(CompressionCodec codec, std::span<const uint8_t> input,
                                                     int64_t uncompressed_size);

/// The content size the header of the frame at the start of `input` states (ZSTD's Frame
/// Content Size, LZ4's Content Size field), without decompressing anything; std::nullopt when
/// the header leaves it out or cannot be read (decompression then reports the problem).
/// Sizes beyond INT64_MAX read as INT64_MAX.
std::optional<int64_t> FrameContentSize(CompressionCodec codec, std::span<const uint8_t> input);

}  // namespace recflow::arrow_ipc
