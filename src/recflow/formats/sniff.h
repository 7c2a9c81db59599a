// Recognising an input by its content: the compression around it and the format inside, with
// how sure the guess is (the rules are in docs/formats/detection.md).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "recflow/core/compression.h"
#include "recflow/core/io.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"

namespace recflow::formats {

class ContentSniffer;

/// Content checks, in priority order (a format's FormatDescriptor::sniffers()).
using ContentSniffers = std::span<const ContentSniffer* const>;

/// The compression a file's first bytes show.
enum class SniffedCodec : uint8_t {
  kNone,
  kGzip,
  kZlib,
  // Codecs recflow does not read: named in an error.
  kZstd,
  kBzip2,
  kXz,
  kLz4Frame,
  kSnappyFramed,
};

/// What a file holds (inside its compression).
enum class ContentKind : uint8_t {
  kUnknown,  ///< nothing recognised
  kEmpty,    ///< no bytes at all
  kTfrecord,
  kArrowFile,
  kArrowStream,        ///< Arrow IPC stream since 0.15: continuation marker, length, Message
  kArrowLegacyStream,  ///< Arrow IPC stream before 0.15: length, Message
  kAvro,
  kJsonl,
  kCsv,
  // Formats recflow does not read: named in an error.
  kParquet,
  kOrc,
  kTiff,
  kBigTiff,
  kPng,
  kJpeg,
  kGif,
  kHdf5,
  kNumpy,
  kZip,
  kFeatherV1,
  kPdf,
  kSqlite,
  kSevenZip,
};

/// A file-name suffix and the content it implies (".tsv" → kCsv). Formats declare theirs
/// (FormatDescriptor::suffixes()); those of formats recflow does not read (.parquet, .orc,
/// .tif) are Sniff's own.
struct SuffixRule {
  std::string_view suffix;
  ContentKind content = ContentKind::kUnknown;
};

/// What Sniff decides with: every registered format's content checks, in priority order, and
/// their suffixes (FormatRegistry::sniff_rules()).
struct SniffRules {
  ContentSniffers checks;
  std::span<const SuffixRule> suffixes;
};

/// How the content was decided, from the surest to the weakest.
enum class Certainty : uint8_t {
  kNone,      ///< neither content nor name says anything
  kSuffix,    ///< the file name's suffix only
  kGuess,     ///< text that looks like CSV or JSON Lines
  kChecked,   ///< a magic number or framing checked in the bytes
};

/// What Sniff found.
struct Sniffed {
  SniffedCodec codec = SniffedCodec::kNone;
  ContentKind content = ContentKind::kUnknown;
  Certainty certainty = Certainty::kNone;
  /// What in the bytes decided it ("magic PAR1", "a TFRecord header with a valid length CRC");
  /// empty when the name decided.
  std::string evidence;
  /// True when more bytes of the input would not change the answer: a magic number or framing
  /// was found, a codec recflow does not read, or text whose first line is whole. A head that is
  /// not decided (empty, cut inside the first line, binary bytes nothing matched) may be, once
  /// more of the input arrives: SniffFile reads a pipe until it is.
  bool decided = false;
  /// The registered check whose claim decided the content (a format of its own is found by it);
  /// null when the name, the format-independent magic or nothing decided.
  const ContentSniffer* claimed_by = nullptr;
};

/// Bytes of an input's head that Sniff looks at (compressed; the decompressed head it inspects
/// is at most as large).
inline constexpr int64_t kSniffHeadBytes = int64_t{64} << 10;

/// Decides what an input holds from its first bytes `head` (up to kSniffHeadBytes; the whole
/// input when shorter) and its path or name, with the formats' content checks and suffixes
/// `rules` (the checks sorted by priority; the magic of formats recflow does not read runs among
/// them at sniff_priority::kForeignMagic). Compression first (gzip and zlib are decompressed up to
/// kSniffHeadBytes and looked into), then the content: the first claim in priority order
/// decides, a checked one over the name; a guess (text) gives way to the name's suffix when it
/// has one; unknown bytes go by the suffix. Never fails: hostile heads give kUnknown.
Sniffed Sniff(std::string_view name, std::span<const uint8_t> head, const SniffRules& rules);

/// Sniff on the head of `path`: a regular file's first kSniffHeadBytes, read from `fs`
/// (ReadRange); standard input ("-") and, on the local file system, pipes, FIFOs and devices
/// peeked with PeekInput so that they still read from their first byte afterwards: their bytes
/// as they come until Sniff has decided (or kSniffHeadBytes, or their end), so a slow writer is
/// not waited for. A directory is an InvalidArgument error; I/O errors name the file.
Result<Sniffed> SniffFile(const std::string& path, const SniffRules& rules,
                          FileSystem& fs = *LocalFileSystem::Instance());

/// The head of a stream for Sniff, read as SniffFile reads a pipe: until Sniff(in.name(), head,
/// rules) has decided, kSniffHeadBytes arrived or the stream ended. `in` is left after those
/// bytes.
Result<std::string> ReadSniffHead(InputStream& in, const SniffRules& rules);

/// The content a name's suffix implies, compression suffixes (.gz, .zz, .zlib) ignored: by
/// `registered` (the formats' suffixes), else by the suffixes of formats recflow does not read
/// (.parquet, .orc, .tif/.tiff/.TIF); kUnknown otherwise.
ContentKind ContentFromSuffix(std::string_view name, std::span<const SuffixRule> registered);

/// "gzip", "zlib", "zstd", "bzip2", "xz", "lz4", "snappy"; "none".
std::string_view CodecName(SniffedCodec codec);
/// The codec as a Compression recflow reads; nullopt for kZstd and the other foreign codecs.
std::optional<Compression> ReadableCompression(SniffedCodec codec);
/// "TFRecord", "Arrow IPC file", "Arrow IPC stream", "Arrow IPC stream (pre-0.15 format)",
/// "Avro", "JSON Lines", "CSV", "Parquet file", "GeoTIFF/TIFF image", ..., "unknown", "empty".
std::string_view ContentName(ContentKind content);
/// True for the formats recflow does not read (Parquet, TIFF, ...).
bool IsForeign(ContentKind content);

/// The DataError for an input recflow does not read (a foreign format or codec), naming the
/// file, what was detected and what to do instead; OK for anything recflow reads.
Status CheckReadable(const std::string& path, const Sniffed& sniffed);
/// CheckReadable for the codec alone (the content is read as a format named instead).
Status CheckReadableCodec(const std::string& path, const Sniffed& sniffed);

}  // namespace recflow::formats
