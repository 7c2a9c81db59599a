// DecompressBlock: raw deflate (core), snappy with its CRC-32 trailer, zstandard and xz streams, all capped.
#include "recflow/formats/avro/block_codec_internal.h"

#include <libdeflate.h>
#include <lzma.h>
#include <snappy.h>
#include <zstd.h>

#include <algorithm>
#include <string>

#include "recflow/core/compression.h"

namespace recflow::avro {
namespace {

constexpr int64_t kSnappyCrcSize = 4;
// Memory liblzma may use for one block (xz -9 needs 65 MiB); a hostile header asking more fails.
constexpr uint64_t kXzMemoryLimit = uint64_t{128} << 20;

Status TooLarge(int64_t max_output) {
  return Status::DataError("avro block decompresses to more than the limit of " + std::to_string(max_output) +
                           " bytes (ReadOptions::max_block_bytes)");
}

Result<std::shared_ptr<Buffer>> Snappy(std::span<const uint8_t> in, int64_t max_output) {
  if (static_cast<int64_t>(in.size()) < kSnappyCrcSize) return Status::DataError("avro snappy block shorter than its CRC");
  const char* data = reinterpret_cast<const char*>(in.data());
  const size_t size = in.size() - kSnappyCrcSize;
  size_t length = 0;
  if (!snappy::GetUncompressedLength(data, size, &length)) return Status::DataError("corrupt avro snappy block");
  if (length > static_cast<uint64_t>(max_output)) return TooLarge(max_output);
  BufferBuilder out;
  RETURN_NOT_OK(out.Resize(static_cast<int64_t>(length)));
  if (!snappy::RawUncompress(data, size, reinterpret_cast<char*>(out.mutable_data()))) {
    return Status::DataError("corrupt avro snappy block");
  }
  const uint8_t* c = in.data() + size;
  const uint32_t expected = uint32_t{c[0]} << 24 | uint32_t{c[1]} << 16 | uint32_t{c[2]} << 8 | uint32_t{c[3]};
  if (libdeflate_crc32(0, out.data(), length) != expected) {
    return Status::DataError("avro snappy block fails its CRC-32 check");
  }
  return out.Finish();
}

// Grows `out` for the next decompression step: the whole input's worth again, capped.
Status GrowOutput(BufferBuilder& out, int64_t used, int64_t input_size, int64_t max_output) {
  if (used < out.size()) return Status::OK();
  if (used >= max_output) return TooLarge(max_output);
  const int64_t step = std::max<int64_t>({input_size, 4096, used});
  return out.Resize(std::min(max_output, used + step));
}

Result<std::shared_ptr<Buffer>> Zstandard(std::span<const uint8_t> in, int64_t max_output) {
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (ctx == nullptr) return Status::OutOfMemory("cannot allocate a zstd decompressor");
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  BufferBuilder out;
  int64_t used = 0;
  size_t last = 0;
  while (input.pos < input.size || last != 0) {
    RETURN_NOT_OK(GrowOutput(out, used, static_cast<int64_t>(in.size()), max_output));
    ZSTD_outBuffer output{out.mutable_data(), static_cast<size_t>(out.size()), static_cast<size_t>(used)};
    const size_t in_before = input.pos;
    last = ZSTD_decompressStream(ctx.get(), &output, &input);
    if (ZSTD_isError(last)) return Status::DataError(std::string("corrupt avro zstandard block: ") + ZSTD_getErrorName(last));
    const bool progressed = input.pos != in_before || static_cast<int64_t>(output.pos) != used;
    used = static_cast<int64_t>(output.pos);
    if (!progressed && used < out.size()) return Status::DataError("truncated avro zstandard block");
  }
  RETURN_NOT_OK(out.Resize(used));
  return out.Finish();
}

Result<std::shared_ptr<Buffer>> Xz(std::span<const uint8_t> in, int64_t max_output) {
  lzma_stream stream = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&stream, kXzMemoryLimit, LZMA_CONCATENATED) != LZMA_OK) {
    return Status::OutOfMemory("cannot allocate an xz decompressor");
  }
  std::unique_ptr<lzma_stream, void (*)(lzma_stream*)> guard(&stream, lzma_end);
  stream.next_in = in.data();
  stream.avail_in = in.size();
  BufferBuilder out;
  int64_t used = 0;
  for (;;) {
    RETURN_NOT_OK(GrowOutput(out, used, static_cast<int64_t>(in.size()), max_output));
    stream.next_out = out.mutable_data() + used;
    stream.avail_out = static_cast<size_t>(out.size() - used);
    const lzma_ret ret = lzma_code(&stream, LZMA_FINISH);
    used = out.size() - static_cast<int64_t>(stream.avail_out);
    if (ret == LZMA_STREAM_END) break;
    if (ret != LZMA_OK) return Status::DataError("corrupt or truncated avro xz block (liblzma error " + std::to_string(ret) + ")");
  }
  RETURN_NOT_OK(out.Resize(used));
  return out.Finish();
}

}  // namespace

Result<BlockCodec> ParseBlockCodec(std::string_view name) {
  if (name.empty() || name == "null") return BlockCodec::kNull;
  if (name == "deflate") return BlockCodec::kDeflate;
  if (name == "snappy") return BlockCodec::kSnappy;
  if (name == "zstandard") return BlockCodec::kZstandard;
  if (name == "xz") return BlockCodec::kXz;
  return Status::DataError("avro codec '" + std::string(name) +
                           "' is not supported (supported: null, deflate, snappy, zstandard, xz)");
}

Result<std::shared_ptr<Buffer>> DecompressBlock(BlockCodec codec, const std::shared_ptr<Buffer>& data,
                                                int64_t max_output) {
  switch (codec) {
    case BlockCodec::kNull:
      if (data->size() > max_output) return TooLarge(max_output);
      return data;
    case BlockCodec::kDeflate: {
      auto out = InflateRawBuffer(data->span(), max_output);
      if (!out.ok()) return Status(out.status().code(), "avro deflate block: " + out.status().message());
      return out;
    }
    case BlockCodec::kSnappy:
      return Snappy(data->span(), max_output);
    case BlockCodec::kZstandard:
      return Zstandard(data->span(), max_output);
    case BlockCodec::kXz:
      return Xz(data->span(), max_output);
  }
  return Status::Internal("unknown avro block codec");
}

}  // namespace recflow::avro
