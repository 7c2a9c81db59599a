// Chunked compression: compress pieces of one gzip/zlib stream independently on many threads
// and join them into a single standard stream (the technique pigz uses).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "recflow/core/compression.h"
#include "recflow/core/io.h"
#include "recflow/core/status.h"

namespace recflow {

/// One piece of a stream, compressed on its own: for kGzip/kZlib a run of raw deflate blocks
/// that ends byte-aligned (sync flush) with no final block, so chunks concatenate; for kNone
/// the bytes themselves.
struct CompressedChunk {
  /// The chunk's bytes as they go into the file.
  std::string bytes;
  /// Uncompressed bytes in the chunk.
  int64_t raw_size = 0;
  /// CRC-32 (kGzip) or Adler-32 (kZlib) of the uncompressed bytes; 0 for kNone.
  uint32_t check = 0;
  /// The codec the chunk was made for; ChunkedStreamWriter refuses a chunk of another codec.
  Compression compression = Compression::kNone;
};

/// A library that writes raw deflate blocks for chunks.
enum class DeflateLibrary : uint8_t { kZlib, kIsal };

/// The library a gzip/zlib level compresses with, and that library's own level.
struct DeflateEngine {
  DeflateLibrary library = DeflateLibrary::kZlib;
  /// zlib 0..9 or ISA-L igzip 1..3.
  int level = 0;
};

/// The level that -1 stands for.
inline constexpr int kDefaultCompressionLevel = 2;

/// The engine of a gzip/zlib level (0..9, -1 = kDefaultCompressionLevel): ISA-L igzip levels 1
/// and 2 for levels 1 and 2, zlib's own level for 0 (stored) and 3..9 (docs/compression.md
/// gives the measured sizes and speeds behind the choice). Other levels are InvalidArgument.
Result<DeflateEngine> DeflateEngineForLevel(int level);

/// Compresses the concatenation of `pieces` as one chunk with a fresh dictionary, with the
/// engine DeflateEngineForLevel(`level`) names. Thread-safe (each call has its own state).
/// Each thread keeps one state per library for its lifetime (zlib about 268 KiB, ISA-L about
/// 600 KiB) and reuses it for every chunk; a chunk's bytes depend only on its input and level,
/// never on the thread or on earlier chunks. `level` is 0..9 or -1; anything else is
/// InvalidArgument. A chunk of no bytes compresses to no bytes.
Status CompressChunk(Compression compression, int level, std::span<const std::string_view> pieces,
                     CompressedChunk* out);

/// Writes chunks, in order, into one standard gzip (RFC 1952, one member) or zlib (RFC 1950)
/// stream: the header on the first chunk, the final empty block and the trailer (CRC-32 and
/// size, or Adler-32, combined from the chunks' checks) on Finish(). A file with no chunk is
/// still a valid empty stream. The output is deterministic: gzip has no name, no mtime and
/// OS 255 (unknown). After an output error every later call returns that error.
class ChunkedStreamWriter {
 public:
  /// Writes into `out` (not owned; it must outlive the writer and is not closed by it).
  /// `level` is the one the chunks were compressed at; it only sets the informational header
  /// bits (gzip XFL, zlib FLEVEL, as zlib sets them for that level), and one outside 0..9 and
  /// -1 makes Append/Finish fail.
  ChunkedStreamWriter(Compression compression, OutputStream* out, int level = -1);
  /// Appends a chunk made by CompressChunk with the same compression (else InvalidArgument).
  Status Append(const CompressedChunk& chunk);
  /// Writes the header when no chunk did, the final empty block and the trailer; does not
  /// flush or close the output. Idempotent; Append after Finish is an IOError.
  Status Finish();
  /// Uncompressed bytes appended so far.
  int64_t raw_bytes() const { return raw_bytes_; }
  /// Bytes written to the output so far.
  int64_t written_bytes() const { return written_bytes_; }

 private:
  Status WriteHeaderIfNeeded();
  /// Writes the header if needed, then the chunk's bytes, and folds in its check and size.
  Status WriteChunk(const CompressedChunk& chunk);
  /// Writes the header if needed, the final block and the trailer.
  Status WriteTrailer();
  /// Writes `bytes` to the output and counts them.
  Status Write(std::string_view bytes);

  Compression compression_;
  OutputStream* out_;
  int level_;
  bool header_written_ = false;
  bool finished_ = false;
  /// The first output error; returned by every later call.
  Status error_;
  /// CRC-32 or Adler-32 of all bytes appended so far.
  uint32_t check_;
  int64_t raw_bytes_ = 0;
  int64_t written_bytes_ = 0;
};

}  // namespace recflow
