// GZIP and ZLIB: detection, streaming (ISA-L inflate, chunked ISA-L/zlib deflate) and whole-buffer (libdeflate) (de)compression.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "recflow/core/buffer.h"
#include "recflow/core/io.h"

namespace recflow {

/// A compression codec for whole files.
enum class Compression : uint8_t { kNone, kGzip, kZlib };

/// "none", "gzip" or "zlib".
std::string_view CompressionName(Compression c);
/// Parses "none"/"", "gzip"/"gz", "zlib" (case-insensitive); anything else is InvalidArgument.
Result<Compression> ParseCompression(std::string_view name);
/// From a file name: ".gz" → GZIP, ".zz"/".zlib" → ZLIB, otherwise none.
Compression CompressionFromSuffix(std::string_view path);
/// The file name suffix recflow writes for `c`: "" (none), ".gz" (GZIP) or ".zz" (ZLIB).
std::string_view CompressionSuffix(Compression c);
/// True when the bytes start with the GZIP magic (1f 8b 08).
bool LooksLikeGzip(std::span<const uint8_t> head);
/// True when the first two bytes are a valid ZLIB header (deflate method, check bits).
/// Two bytes are a weak signal: formats with their own checkable header test that first.
bool LooksLikeZlib(std::span<const uint8_t> head);

/// Wraps `raw` so reads return decompressed bytes (ISA-L inflate). GZIP input may hold several concatenated
/// members (as `cat a.gz b.gz` makes); they read as one stream. Corrupt or truncated input is a
/// DataError naming the stream and the compressed byte offset. kNone returns `raw` unchanged.
Result<std::unique_ptr<InputStream>> MakeDecompressingStream(Compression c, std::unique_ptr<InputStream> raw);

/// Opens a local file ("-" is standard input) as a stream of its decompressed bytes, the codec
/// chosen by the name's suffix (CompressionFromSuffix).
Result<std::unique_ptr<InputStream>> OpenDecompressedFile(const std::string& path);

/// Wraps `raw` so written bytes are compressed into one standard stream: 1 MiB chunks, each
/// compressed by CompressChunk at `level` (0..9, -1 = the default; see DeflateEngineForLevel)
/// and joined by ChunkedStreamWriter, so the bytes equal the dataset writer's for the same
/// input. Flush() ends the pending chunk, making all bytes so far decodable. Close() writes the
/// trailer and closes `raw`. kNone returns `raw` unchanged. A bad level is InvalidArgument.
Result<std::unique_ptr<OutputStream>> MakeCompressingStream(Compression c, std::unique_ptr<OutputStream> raw,
                                                            int level = -1);

/// Decompresses a whole in-memory input with libdeflate (all GZIP members). Refuses to produce
/// more than `max_output` bytes (a guard against decompression bombs).
Result<std::shared_ptr<Buffer>> DecompressBuffer(Compression c, std::span<const uint8_t> input,
                                                 int64_t max_output = int64_t{1} << 40);
/// Decompresses raw deflate data (RFC 1951: no GZIP/ZLIB header or trailer, as Avro's
/// `deflate` codec writes it) with libdeflate. Refuses to produce more than `max_output` bytes;
/// corrupt or truncated input is a DataError. Bytes after the end of the deflate stream are
/// ignored, as zlib's raw inflate ignores them (Avro's Python writer leaves three bytes of a
/// zlib trailer there).
Result<std::shared_ptr<Buffer>> InflateRawBuffer(std::span<const uint8_t> input, int64_t max_output);
/// Compresses a whole in-memory input with libdeflate (level 1..12, -1 = 6).
Result<std::shared_ptr<Buffer>> CompressBuffer(Compression c, std::span<const uint8_t> input, int level = -1);

}  // namespace recflow
