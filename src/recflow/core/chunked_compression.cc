// Chunked GZIP/ZLIB: independent chunks deflated by the level's engine (ISA-L or zlib), joined into one stream.
#include "recflow/core/chunked_compression.h"

#include <libdeflate.h>
#include <zlib.h>

#include "recflow/core/chunk_deflaters.h"

namespace recflow {

namespace {

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

/// The engine of each level 0..9 (docs/compression.md says why): ISA-L where it is much faster
/// than zlib for a small loss in size, zlib for stored blocks and for the smaller outputs.
constexpr DeflateEngine kEngines[] = {
    {DeflateLibrary::kZlib, 0}, {DeflateLibrary::kIsal, 1}, {DeflateLibrary::kIsal, 2}, {DeflateLibrary::kZlib, 3},
    {DeflateLibrary::kZlib, 4}, {DeflateLibrary::kZlib, 5}, {DeflateLibrary::kZlib, 6}, {DeflateLibrary::kZlib, 7},
    {DeflateLibrary::kZlib, 8}, {DeflateLibrary::kZlib, 9}};

/// The level with -1 resolved to the default.
int EffectiveLevel(int level) { return level == -1 ? kDefaultCompressionLevel : level; }

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
  return "gzip/zlib compression level must be 0..9 or -1, not " + std::to_string(level);
}

}  // namespace

Result<DeflateEngine> DeflateEngineForLevel(int level) {
  if (!ValidLevel(level)) return Status::InvalidArgument(InvalidLevelMessage(level));
  return kEngines[EffectiveLevel(level)];
}

Status CompressChunk(Compression compression, int level, std::span<const std::string_view> pieces,
                     CompressedChunk* out) {
  if (!ValidLevel(level)) return Status::InvalidArgument(InvalidLevelMessage(level));
  const size_t total = internal::TotalSize(pieces);
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
  for (std::string_view piece : pieces) out->check = ExtendCheck(compression, out->check, piece);
  const DeflateEngine engine = kEngines[EffectiveLevel(level)];
  return engine.library == DeflateLibrary::kIsal ? internal::IsalDeflateChunk(engine.level, pieces, &out->bytes)
                                                 : internal::ZlibDeflateChunk(engine.level, pieces, &out->bytes);
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
