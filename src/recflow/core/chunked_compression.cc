// Chunked GZIP/ZLIB: per-thread raw deflate of independent chunks, joined into one stream.
#include "recflow/core/chunked_compression.h"

#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <array>

namespace recflow {

namespace {

/// Largest request handed to zlib at once (its counters are unsigned int).
constexpr size_t kMaxZlibRequest = size_t{1} << 30;
/// Room beyond deflateBound() for the sync-flush marker, which the bound does not count.
constexpr size_t kFlushSlack = 16;
/// A final fixed-Huffman block holding only the end-of-block code (RFC 1951 3.2.6): it ends
/// the deflate stream after the chunks' non-final blocks.
constexpr std::string_view kFinalBlock("\x03\x00", 2);

static_assert(sizeof(z_off_t) >= 8, "combining checks of chunks over 2 GiB needs a 64-bit z_off_t");

/// The check of no bytes: CRC-32 starts at 0, Adler-32 at 1.
uint32_t InitialCheck(Compression c) { return c == Compression::kZlib ? 1 : 0; }

/// Extends a chunk's check over `bytes`.
uint32_t ExtendCheck(Compression c, uint32_t check, std::string_view bytes) {
  return c == Compression::kGzip ? libdeflate_crc32(check, bytes.data(), bytes.size())
                                 : libdeflate_adler32(check, bytes.data(), bytes.size());
}

/// The check of A followed by B, from the checks of A and B and the size of B.
uint32_t CombineChecks(Compression c, uint32_t first, uint32_t second, int64_t second_size) {
  return static_cast<uint32_t>(c == Compression::kGzip ? crc32_combine(first, second, second_size)
                                                       : adler32_combine(first, second, second_size));
}

/// The zlib level with -1 resolved to zlib's default.
int EffectiveLevel(int level) { return level == Z_DEFAULT_COMPRESSION ? 6 : level; }

/// A raw-deflate state that lives as long as its thread, so that a chunk costs a deflateReset
/// instead of allocating and clearing the window and hash tables. A level change
/// re-initializes instead of calling deflateParams, whose behaviour on a freshly reset stream
/// differs between zlib versions; callers change levels rarely.
class ThreadDeflater {
 public:
  ThreadDeflater() = default;
  ThreadDeflater(const ThreadDeflater&) = delete;
  ThreadDeflater& operator=(const ThreadDeflater&) = delete;
  ~ThreadDeflater() {
    if (initialized_) deflateEnd(&z_);
  }

  /// The state, reset to compress a new chunk at `level` with an empty dictionary.
  Result<z_stream*> Start(int level) {
    if (initialized_ && level == level_) {
      if (deflateReset(&z_) != Z_OK) return Status::Internal("deflateReset failed");
      return &z_;
    }
    if (initialized_) deflateEnd(&z_);
    z_ = z_stream{};
    initialized_ = deflateInit2(&z_, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    if (!initialized_) return Status::OutOfMemory("cannot initialize zlib deflate");
    level_ = level;
    return &z_;
  }

 private:
  z_stream z_{};
  bool initialized_ = false;
  int level_ = 0;
};

/// Runs deflate with `flush` until the pending input is consumed and, for a flush, all of its
/// output is out, appending to `out` from `*used` on (and growing it when full).
Status Pump(z_stream* z, int flush, std::string* out, size_t* used) {
  for (;;) {
    if (*used == out->size()) out->resize(out->size() * 2);
    const size_t room = std::min(out->size() - *used, kMaxZlibRequest);
    z->next_out = reinterpret_cast<Bytef*>(out->data() + *used);
    z->avail_out = static_cast<uInt>(room);
    const int rc = deflate(z, flush);
    *used += room - z->avail_out;
    if (rc == Z_STREAM_ERROR) return Status::Internal("deflate failed: inconsistent stream state");
    if (z->avail_in == 0 && z->avail_out != 0) return Status::OK();
  }
}

/// The RFC 1952 member header (no name, no mtime, OS unknown) or the RFC 1950 header.
std::string StreamHeader(Compression c, int level) {
  level = EffectiveLevel(level);
  if (c == Compression::kGzip) {
    // XFL, as zlib sets it: 2 = slowest algorithm, 4 = fastest algorithm.
    const char xfl = level == 9 ? 2 : level < 2 ? 4 : 0;
    return {'\x1f', '\x8b', 8, 0, 0, 0, 0, 0, xfl, '\xff'};
  }
  // CMF: deflate with a 32 KiB window; FLG: FLEVEL as zlib sets it, no dictionary, and FCHECK
  // making CMF * 256 + FLG a multiple of 31.
  constexpr unsigned kCmf = 0x78;
  const unsigned flevel = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
  unsigned flg = flevel << 6;
  flg += 31 - (kCmf * 256 + flg) % 31;
  return {static_cast<char>(kCmf), static_cast<char>(flg)};
}

void AppendLittleEndian32(uint32_t v, std::string* out) {
  for (int shift = 0; shift < 32; shift += 8) out->push_back(static_cast<char>(v >> shift));
}

void AppendBigEndian32(uint32_t v, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

bool ValidLevel(int level) { return level >= -1 && level <= 9; }

std::string InvalidLevelMessage(int level) {
  return "zlib compression level must be 0..9 or -1, not " + std::to_string(level);
}

}  // namespace

Status CompressChunk(Compression compression, int level, std::span<const std::string_view> pieces,
                     CompressedChunk* out) {
  if (!ValidLevel(level)) return Status::InvalidArgument(InvalidLevelMessage(level));
  size_t total = 0;
  for (std::string_view piece : pieces) total += piece.size();
  out->compression = compression;
  out->raw_size = static_cast<int64_t>(total);
  out->check = InitialCheck(compression);
  out->bytes.clear();
  if (compression == Compression::kNone) {
    out->bytes.reserve(total);
    for (std::string_view piece : pieces) out->bytes.append(piece);
    return Status::OK();
  }
  if (total == 0) return Status::OK();

  static thread_local ThreadDeflater deflater;
  ASSIGN_OR_RETURN(z_stream * z, deflater.Start(level));
  out->bytes.resize(deflateBound(z, total) + kFlushSlack);
  size_t used = 0;
  for (std::string_view piece : pieces) {
    out->check = ExtendCheck(compression, out->check, piece);
    for (size_t pos = 0; pos < piece.size();) {
      const size_t take = std::min(piece.size() - pos, kMaxZlibRequest);
      z->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(piece.data() + pos));
      z->avail_in = static_cast<uInt>(take);
      RETURN_NOT_OK(Pump(z, Z_NO_FLUSH, &out->bytes, &used));
      pos += take;
    }
  }
  RETURN_NOT_OK(Pump(z, Z_SYNC_FLUSH, &out->bytes, &used));
  out->bytes.resize(used);
  return Status::OK();
}

ChunkedStreamWriter::ChunkedStreamWriter(Compression compression, OutputStream* out, int level)
    : compression_(compression), out_(out), level_(level), check_(InitialCheck(compression)) {}

Status ChunkedStreamWriter::Append(const CompressedChunk& chunk) {
  if (finished_) return Status::IOError(out_->name() + ": append after Finish");
  RETURN_NOT_OK(error_);
  if (chunk.compression != compression_) {
    return Status::InvalidArgument("a " + std::string(CompressionName(chunk.compression)) +
                                   " chunk cannot join a " + std::string(CompressionName(compression_)) +
                                   " stream");
  }
  error_ = WriteChunk(chunk);
  return error_;
}

Status ChunkedStreamWriter::Finish() {
  if (!finished_) {
    finished_ = true;
    if (error_.ok()) error_ = WriteTrailer();
  }
  return error_;
}

Status ChunkedStreamWriter::WriteHeaderIfNeeded() {
  if (header_written_ || compression_ == Compression::kNone) return Status::OK();
  if (!ValidLevel(level_)) return Status::InvalidArgument(InvalidLevelMessage(level_));
  RETURN_NOT_OK(Write(StreamHeader(compression_, level_)));
  header_written_ = true;
  return Status::OK();
}

Status ChunkedStreamWriter::WriteChunk(const CompressedChunk& chunk) {
  RETURN_NOT_OK(WriteHeaderIfNeeded());
  RETURN_NOT_OK(Write(chunk.bytes));
  if (compression_ != Compression::kNone) check_ = CombineChecks(compression_, check_, chunk.check, chunk.raw_size);
  raw_bytes_ += chunk.raw_size;
  return Status::OK();
}

Status ChunkedStreamWriter::WriteTrailer() {
  if (compression_ == Compression::kNone) return Status::OK();
  RETURN_NOT_OK(WriteHeaderIfNeeded());
  std::string trailer(kFinalBlock);
  if (compression_ == Compression::kGzip) {
    AppendLittleEndian32(check_, &trailer);
    AppendLittleEndian32(static_cast<uint32_t>(raw_bytes_), &trailer);  // ISIZE: the size mod 2^32
  } else {
    AppendBigEndian32(check_, &trailer);
  }
  return Write(trailer);
}

Status ChunkedStreamWriter::Write(std::string_view bytes) {
  RETURN_NOT_OK(out_->Write(bytes.data(), static_cast<int64_t>(bytes.size())));
  written_bytes_ += static_cast<int64_t>(bytes.size());
  return Status::OK();
}

}  // namespace recflow
