// DecompressBodyBuffer: LZ4_FRAME (liblz4 LZ4F_decompress) and ZSTD (ZSTD_decompressStream) into a growing buffer.
#include <lz4frame.h>
#include <zstd.h>

#include <algorithm>
#include <limits>
#include <string>

#include "recflow/formats/arrow_ipc/body_compression_internal.h"

namespace recflow::arrow_ipc {
namespace {

Status CodecError(CompressionCodec codec, const std::string& what) {
  return Status::DataError("arrow ipc: " + std::string(CompressionCodecName(codec)) + " buffer: " + what);
}

/// What one call of a streaming decompressor did.
struct StepResult {
  size_t produced = 0;
  size_t consumed = 0;
  bool done = false;
};

/// Calls `step(out, out_room, in, in_size)` until the frame ends, growing the output up to
/// `limit` bytes; the output must be exactly `limit` bytes.
template <typename Step>
Result<std::shared_ptr<Buffer>> RunDecompressor(CompressionCodec codec, std::span<const uint8_t> input, int64_t limit,
                                                Step step) {
  BufferBuilder out;
  // Start near a typical ratio; never above the limit.
  int64_t capacity = std::min<int64_t>(limit, std::max<int64_t>(4096, static_cast<int64_t>(input.size()) * 4));
  RETURN_NOT_OK(out.Resize(capacity));
  int64_t produced = 0;
  size_t consumed = 0;
  while (true) {
    if (produced == capacity && capacity < limit) {
      capacity = std::min(limit, capacity * 2);
      RETURN_NOT_OK(out.Resize(capacity));
    }
    ASSIGN_OR_RETURN(const StepResult r, step(out.mutable_data() + produced, static_cast<size_t>(capacity - produced),
                                              input.data() + consumed, input.size() - consumed));
    produced += static_cast<int64_t>(r.produced);
    consumed += r.consumed;
    if (r.done) break;
    if (r.produced == 0 && r.consumed == 0) {  // no progress: out of room or out of input
      if (produced == limit) {
        return CodecError(codec, "expands to more than the " + std::to_string(limit) + " bytes announced");
      }
      return CodecError(codec, "truncated frame");
    }
  }
  if (produced != limit) {
    return CodecError(codec, "expands to " + std::to_string(produced) + " bytes, not the " + std::to_string(limit) +
                                 " announced");
  }
  RETURN_NOT_OK(out.Resize(produced));
  return out.Finish();
}

Result<std::shared_ptr<Buffer>> DecompressLz4(std::span<const uint8_t> input, int64_t size) {
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) {
    return Status::OutOfMemory("arrow ipc: cannot create an lz4 context");
  }
  std::unique_ptr<LZ4F_dctx, decltype(&LZ4F_freeDecompressionContext)> guard(ctx, LZ4F_freeDecompressionContext);
  return RunDecompressor(CompressionCodec::kLz4Frame, input, size,
                         [&](uint8_t* dst, size_t dst_size, const uint8_t* src, size_t src_size) -> Result<StepResult> {
                           size_t out_size = dst_size;
                           size_t in_size = src_size;
                           const size_t hint = LZ4F_decompress(ctx, dst, &out_size, src, &in_size, nullptr);
                           if (LZ4F_isError(hint)) {
                             return CodecError(CompressionCodec::kLz4Frame, LZ4F_getErrorName(hint));
                           }
                           return StepResult{out_size, in_size, hint == 0};
                         });
}

Result<std::shared_ptr<Buffer>> DecompressZstd(std::span<const uint8_t> input, int64_t size) {
  ZSTD_DStream* ctx = ZSTD_createDStream();
  if (ctx == nullptr) return Status::OutOfMemory("arrow ipc: cannot create a zstd context");
  std::unique_ptr<ZSTD_DStream, decltype(&ZSTD_freeDStream)> guard(ctx, ZSTD_freeDStream);
  return RunDecompressor(CompressionCodec::kZstd, input, size,
                         [&](uint8_t* dst, size_t dst_size, const uint8_t* src, size_t src_size) -> Result<StepResult> {
                           ZSTD_outBuffer out{dst, dst_size, 0};
                           ZSTD_inBuffer in{src, src_size, 0};
                           const size_t hint = ZSTD_decompressStream(ctx, &out, &in);
                           if (ZSTD_isError(hint)) return CodecError(CompressionCodec::kZstd, ZSTD_getErrorName(hint));
                           return StepResult{out.pos, in.pos, hint == 0};
                         });
}

/// A stated content size as int64_t (saturating).
int64_t ClampedSize(unsigned long long size) {
  constexpr auto kMax = static_cast<unsigned long long>(std::numeric_limits<int64_t>::max());
  return static_cast<int64_t>(std::min(size, kMax));
}

std::optional<int64_t> Lz4ContentSize(std::span<const uint8_t> input) {
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) return std::nullopt;
  std::unique_ptr<LZ4F_dctx, decltype(&LZ4F_freeDecompressionContext)> guard(ctx, LZ4F_freeDecompressionContext);
  LZ4F_frameInfo_t info{};
  size_t consumed = input.size();
  if (LZ4F_isError(LZ4F_getFrameInfo(ctx, &info, input.data(), &consumed))) return std::nullopt;
  // 0 means the header has no Content Size field.
  if (info.contentSize == 0) return std::nullopt;
  return ClampedSize(info.contentSize);
}

std::optional<int64_t> ZstdContentSize(std::span<const uint8_t> input) {
  const unsigned long long size = ZSTD_getFrameContentSize(input.data(), input.size());
  if (size == ZSTD_CONTENTSIZE_UNKNOWN || size == ZSTD_CONTENTSIZE_ERROR) return std::nullopt;
  return ClampedSize(size);
}

}  // namespace

std::optional<int64_t> FrameContentSize(CompressionCodec codec, std::span<const uint8_t> input) {
  switch (codec) {
    case CompressionCodec::kLz4Frame: return Lz4ContentSize(input);
    case CompressionCodec::kZstd: return ZstdContentSize(input);
  }
  return std::nullopt;
}

Result<std::shared_ptr<Buffer>> DecompressBodyBuffer(CompressionCodec codec, std::span<const uint8_t> input,
                                                     int64_t uncompressed_size) {
  if (uncompressed_size < 0) return CodecError(codec, "negative uncompressed length");
  if (uncompressed_size == 0) return Buffer::Allocate(0);
  switch (codec) {
    case CompressionCodec::kLz4Frame: return DecompressLz4(input, uncompressed_size);
    case CompressionCodec::kZstd: return DecompressZstd(input, uncompressed_size);
  }
  return CodecError(codec, "unknown codec");
}

}  // namespace recflow::arrow_ipc
