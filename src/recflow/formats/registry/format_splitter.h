// FormatSplitter: a format's record boundaries — where its files are cut into splits, how one range's records are read.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/buffer.h"
#include "recflow/core/result.h"
#include "recflow/formats/source.h"
#include "recflow/formats/spliced_stream.h"

namespace recflow::formats {

class FormatReadOptions;

/// What a range of a file counts.
enum class SplitUnit : uint8_t {
  kBytes,    ///< byte offsets in the file: the range owns the records that start in [begin, end)
  kBatches,  ///< record batch indices of an Arrow IPC file (from its footer): batches [begin, end)
};

/// "bytes" or "batches".
std::string_view SplitUnitName(SplitUnit unit);

/// A range of one file: what a split reads of it.
struct FileRange {
  SplitUnit unit = SplitUnit::kBytes;
  int64_t begin = 0;
  int64_t end = 0;
  /// "bytes [B, E)" or "batches [B, E)", for messages.
  std::string ToString() const;
};

/// One uncompressed file, mapped whole, as a splitter plans and reads it.
struct MappedFile {
  /// The file's path, named in errors.
  std::string path;
  /// Its bytes (never null).
  std::shared_ptr<Buffer> data;
};

/// The records of one range as the format's Source, and how the byte offsets in its errors map
/// back to the file's (the identity when the source reads the file's own offsets).
struct RangeRecords {
  std::unique_ptr<Source> source;
  SpliceMap map;
};

/// A format's record boundaries, for splits. Stateless, shared by every thread; its calls are per
/// file or per split, never per record. A format without one is read as one whole-file split,
/// as is every compressed file (a gzip or zlib stream is entered only at its start).
class FormatSplitter {
 public:
  virtual ~FormatSplitter() = default;
  /// Cuts `file` into ranges of about `target_bytes` (≥ 1), in file order, that together own
  /// every record exactly once; one range of the whole file when the format cannot enter it
  /// anywhere but at its start; one empty range for an empty file. `options` are the format's
  /// own (its descriptor's ParseReadOptions). DataError naming the file for bytes it cannot plan.
  virtual Result<std::vector<FileRange>> Plan(const MappedFile& file, int64_t target_bytes,
                                              const FormatReadOptions& options) const = 0;
  /// Opens the records of `range` (as Plan made it, possibly in another process) read as
  /// `schema`'s columns (the same for every range of a dataset; inference never runs on a
  /// range), with the format's `options`. InvalidArgument for a range Plan would not make.
  virtual Result<RangeRecords> Open(const MappedFile& file, const FileRange& range, const FormatReadOptions& options,
                                    const SchemaPtr& schema) const = 0;
};

/// A FormatSplitter for a format whose reader finds the first record of a range from any byte:
/// Plan cuts evenly by bytes (EvenByteRanges), reading nothing of the file.
class EvenByteSplitter : public FormatSplitter {
 public:
  Result<std::vector<FileRange>> Plan(const MappedFile& file, int64_t target_bytes,
                                      const FormatReadOptions& options) const final;
};

/// Byte ranges [k*t, (k+1)*t) of a file of `size` bytes (t = target_bytes), the last ending at
/// `size`; one empty range for an empty file. What a format whose reader finds its first record
/// from any byte plans (reading nothing).
std::vector<FileRange> EvenByteRanges(int64_t size, int64_t target_bytes);

/// The byte cuts t, 2t, ... below `size` (t = target_bytes): where EvenByteRanges cuts.
std::vector<int64_t> EvenCuts(int64_t size, int64_t target_bytes);

/// Byte ranges between 0, the ascending `cuts` and `size`, empty ones dropped (one empty range
/// for an empty file).
std::vector<FileRange> ByteRangesBetween(int64_t size, const std::vector<int64_t>& cuts);

/// InvalidArgument naming `file` unless `range` counts bytes and ends within the file: what a
/// format cut by bytes accepts.
Status CheckByteRange(const MappedFile& file, const FileRange& range);

/// InvalidArgument naming `file` unless `range` counts bytes and is the whole file: what a format
/// that reads a file whole accepts.
Status CheckWholeFileRange(const MappedFile& file, const FileRange& range, std::string_view what);

}  // namespace recflow::formats
