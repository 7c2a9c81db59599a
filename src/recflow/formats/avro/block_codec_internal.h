// BlockCodec: the codecs of Avro container blocks (null, deflate, snappy, zstandard, xz) and their decompression.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "recflow/core/buffer.h"
#include "recflow/core/result.h"

namespace recflow::avro {

/// A block codec named by the header's avro.codec.
enum class BlockCodec : uint8_t { kNull, kDeflate, kSnappy, kZstandard, kXz };

/// The codec named `name` ("" means null). DataError naming the codec when recflow does not
/// read it (bzip2, or anything unknown).
Result<BlockCodec> ParseBlockCodec(std::string_view name);

/// The block's data as written before compression. kNull returns `data` itself. Never produces
/// more than `max_output` bytes: a larger block is a DataError (a decompression bomb guard), as
/// is corrupt data or, for snappy, a CRC-32 that does not match the decompressed bytes.
Result<std::shared_ptr<Buffer>> DecompressBlock(BlockCodec codec, const std::shared_ptr<Buffer>& data,
                                                int64_t max_output);

}  // namespace recflow::avro
