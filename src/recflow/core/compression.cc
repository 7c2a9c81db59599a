// Codec names, detection, and whole-buffer GZIP/ZLIB (de)compression with libdeflate.
#include "recflow/core/compression.h"

#include <libdeflate.h>

#include <algorithm>
#include <cctype>
#include <string>

namespace recflow {

namespace {

/// Deflate never expands by more than about 1032:1, so no member can decompress to more.
constexpr int64_t kMaxDeflateRatio = 1032;
/// A GZIP member is at least a 10-byte header, an empty deflate block and an 8-byte trailer.
constexpr size_t kMinGzipMember = 18;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](char x, char y) { return std::tolower(static_cast<unsigned char>(x)) == y; });
}

std::string AtOffset(size_t offset) { return " at compressed byte offset " + std::to_string(offset); }

struct DecompressorDeleter {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};
struct CompressorDeleter {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};

/// libdeflate_{gzip,zlib,deflate}_decompress_ex: one signature for the three wrappings.
using InflateFunction = libdeflate_result (*)(libdeflate_decompressor*, const void*, size_t, void*, size_t, size_t*,
                                              size_t*);

/// Decompresses one GZIP member, ZLIB stream or raw deflate stream (`inflate`, named `what` in
/// errors) at the start of `in`, appending to `out` and growing the output space from `guess`
/// until it fits or `max_output` bytes would be exceeded. Returns the compressed bytes consumed.
Result<size_t> InflateOne(libdeflate_decompressor* d, InflateFunction inflate, std::string_view what,
                          std::span<const uint8_t> in, int64_t guess, int64_t max_output, BufferBuilder* out) {
  const int64_t start = out->size();
  const int64_t room = max_output - start;
  const int64_t bound = static_cast<int64_t>(std::min<uint64_t>(in.size(), INT64_MAX / kMaxDeflateRatio)) *
                        kMaxDeflateRatio;
  int64_t capacity = std::clamp<int64_t>(guess, 1, std::max<int64_t>(1, std::min(room, bound)));
  for (;;) {
    RETURN_NOT_OK(out->Resize(start + capacity));
    size_t in_used = 0, out_used = 0;
    const libdeflate_result r = inflate(d, in.data(), in.size(), out->mutable_data() + start,
                                        static_cast<size_t>(capacity), &in_used, &out_used);
    if (r == LIBDEFLATE_SUCCESS) {
      RETURN_NOT_OK(out->Resize(start + static_cast<int64_t>(out_used)));
      return in_used;
    }
    if (r != LIBDEFLATE_INSUFFICIENT_SPACE) {
      RETURN_NOT_OK(out->Resize(start));
      return Status::DataError("corrupt or truncated " + std::string(what) + " data");
    }
    if (capacity >= room) {
      return Status::DataError("decompressed size exceeds the limit of " + std::to_string(max_output) + " bytes");
    }
    capacity = capacity > room / 2 ? room : capacity * 2;
  }
}

}  // namespace

std::string_view CompressionName(Compression c) {
  switch (c) {
    case Compression::kNone:
      return "none";
    case Compression::kGzip:
      return "gzip";
    case Compression::kZlib:
      return "zlib";
  }
  return "unknown";
}

Result<Compression> ParseCompression(std::string_view name) {
  if (name.empty() || EqualsIgnoreCase(name, "none")) return Compression::kNone;
  if (EqualsIgnoreCase(name, "gzip") || EqualsIgnoreCase(name, "gz")) return Compression::kGzip;
  if (EqualsIgnoreCase(name, "zlib")) return Compression::kZlib;
  return Status::InvalidArgument("unknown compression '" + std::string(name) + "' (expected none, gzip or zlib)");
}

Compression CompressionFromSuffix(std::string_view path) {
  if (path.ends_with(".gz")) return Compression::kGzip;
  if (path.ends_with(".zz") || path.ends_with(".zlib")) return Compression::kZlib;
  return Compression::kNone;
}

std::string_view CompressionSuffix(Compression c) {
  switch (c) {
    case Compression::kGzip:
      return ".gz";
    case Compression::kZlib:
      return ".zz";
    case Compression::kNone:
      break;
  }
  return "";
}

bool LooksLikeGzip(std::span<const uint8_t> head) {
  return head.size() >= 3 && head[0] == 0x1f && head[1] == 0x8b && head[2] == 0x08;
}

bool LooksLikeZlib(std::span<const uint8_t> head) {
  if (head.size() < 2) return false;
  const unsigned cmf = head[0], flg = head[1];
  const bool deflate = (cmf & 0x0f) == 8 && (cmf >> 4) <= 7;
  const bool no_dictionary = (flg & 0x20) == 0;
  return deflate && no_dictionary && (cmf * 256 + flg) % 31 == 0;
}

Result<std::shared_ptr<Buffer>> DecompressBuffer(Compression c, std::span<const uint8_t> input,
                                                 int64_t max_output) {
  if (max_output < 0) return Status::InvalidArgument("negative max_output");
  if (c == Compression::kNone) {
    if (static_cast<int64_t>(input.size()) > max_output) {
      return Status::DataError("input exceeds the limit of " + std::to_string(max_output) + " bytes");
    }
    return Buffer::CopyOf(input);
  }
  std::unique_ptr<libdeflate_decompressor, DecompressorDeleter> d(libdeflate_alloc_decompressor());
  if (d == nullptr) return Status::OutOfMemory("cannot allocate a libdeflate decompressor");
  BufferBuilder out;
  if (c == Compression::kZlib) {
    if (input.empty()) return out.Finish();
    const int64_t guess = static_cast<int64_t>(input.size()) * 4;
    ASSIGN_OR_RETURN(const size_t used,
                     InflateOne(d.get(), libdeflate_zlib_decompress_ex, "zlib", input, guess, max_output, &out));
    if (used != input.size()) return Status::DataError("trailing data after the zlib stream" + AtOffset(used));
    return out.Finish();
  }
  // GZIP: the trailer's ISIZE is exact for a single member and a fair guess otherwise.
  int64_t guess = 0;
  if (input.size() >= kMinGzipMember) {
    const uint8_t* t = input.data() + input.size() - 4;
    guess = int64_t{t[0]} | int64_t{t[1]} << 8 | int64_t{t[2]} << 16 | int64_t{t[3]} << 24;
  }
  size_t pos = 0;
  while (pos < input.size()) {
    const auto rest = input.subspan(pos);
    if (!LooksLikeGzip(rest)) {
      if (pos == 0) return Status::DataError("not gzip data (bad magic bytes)");
      return Status::DataError("trailing garbage after gzip member" + AtOffset(pos));
    }
    if (rest.size() < kMinGzipMember) return Status::DataError("truncated gzip stream" + AtOffset(pos));
    auto used = InflateOne(d.get(), libdeflate_gzip_decompress_ex, "gzip", rest, guess, max_output, &out);
    if (!used.ok()) {
      if (used.status().code() != StatusCode::kDataError) return used.status();
      return Status::DataError(used.status().message() + " (member" + AtOffset(pos) + ")");
    }
    pos += *used;
    guess = static_cast<int64_t>(input.size() - pos) * 4;
  }
  return out.Finish();
}

Result<std::shared_ptr<Buffer>> InflateRawBuffer(std::span<const uint8_t> input, int64_t max_output) {
  if (max_output < 0) return Status::InvalidArgument("negative max_output");
  std::unique_ptr<libdeflate_decompressor, DecompressorDeleter> d(libdeflate_alloc_decompressor());
  if (d == nullptr) return Status::OutOfMemory("cannot allocate a libdeflate decompressor");
  BufferBuilder out;
  const int64_t guess = static_cast<int64_t>(input.size()) * 4;
  RETURN_NOT_OK(InflateOne(d.get(), libdeflate_deflate_decompress_ex, "deflate", input, guess, max_output, &out).status());
  return out.Finish();
}

Result<std::shared_ptr<Buffer>> CompressBuffer(Compression c, std::span<const uint8_t> input, int level) {
  if (level == -1) level = 6;
  if (level < 0 || level > 12) return Status::InvalidArgument("compression level must be 0..12 or -1, not " + std::to_string(level));
  if (c == Compression::kNone) return Buffer::CopyOf(input);
  std::unique_ptr<libdeflate_compressor, CompressorDeleter> z(libdeflate_alloc_compressor(level));
  if (z == nullptr) return Status::OutOfMemory("cannot allocate a libdeflate compressor");
  const bool gzip = c == Compression::kGzip;
  const size_t bound = gzip ? libdeflate_gzip_compress_bound(z.get(), input.size())
                            : libdeflate_zlib_compress_bound(z.get(), input.size());
  BufferBuilder out;
  RETURN_NOT_OK(out.Resize(static_cast<int64_t>(bound)));
  const size_t n = gzip ? libdeflate_gzip_compress(z.get(), input.data(), input.size(), out.mutable_data(), bound)
                        : libdeflate_zlib_compress(z.get(), input.data(), input.size(), out.mutable_data(), bound);
  if (n == 0) return Status::Internal("libdeflate output exceeded its own bound");
  RETURN_NOT_OK(out.Resize(static_cast<int64_t>(n)));
  return out.Finish();
}

Result<std::unique_ptr<InputStream>> OpenDecompressedFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::unique_ptr<InputStream> file, FileInputStream::Open(path));
  return MakeDecompressingStream(CompressionFromSuffix(path), std::move(file));
}

}  // namespace recflow
