// MakeSplits: input files cut into splits of about a target size, at boundaries each format can find again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/dataset/split.h"

namespace recflow::dataset {

/// One input file to split, its format and codec already detected.
struct SplitInput {
  /// A regular file (valid UTF-8 path).
  std::string path;
  /// Its format (never null): its splitter finds the boundaries.
  const formats::FormatDescriptor* format = nullptr;
  /// Its codec (CompressionName: "none", "gzip", "zlib", ...).
  std::string compression = "none";
  /// Its Hive partition values, as Split::partition.
  std::vector<SplitPartitionValue> partition;
};

/// What MakeSplits needs to know of one detected input `file` read with `read`: its path made
/// absolute (another process, in another directory, opens the split by it; "-" stays), its format,
/// the codec its format reads it with (FormatDescriptor::ReadCodec: TFRecord's `compression` word
/// wins over detection) and its partition values, typed as `partitions` (the inputs' partition
/// columns) types them. InvalidArgument for a bad read option.
Result<SplitInput> SplitInputOf(const ResolvedInput& file, const InputOptions& read, const Schema& partitions);

/// How MakeSplits cuts.
struct SplitOptions {
  /// About this many bytes per split (a split's records may run past its end; an Arrow file's
  /// splits are whole record batches adding up to at least this, the last fewer).
  int64_t target_bytes = int64_t{64} << 20;
  /// The read the splits are for: each format's read options (the CSV dialect rows are found
  /// with), and the file system files are mapped from (read.settings.file_system).
  InputOptions read;
  /// 64 MiB splits, each format's default options, the local file system.
  static SplitOptions Defaults() { return {}; }
  /// InvalidArgument unless target_bytes >= 1.
  Status Validate() const;
};

/// Splits every input, in order, each file's splits in file order, as its format's splitter
/// (FormatDescriptor::splitter) plans them over the mapped file; a compressed file (one gzip or
/// zlib stream, entered only at its start) or a file of a format without a splitter is one split
/// of the whole file. The built-in formats:
///  - uncompressed TFRecord, JSON Lines and Avro: byte ranges [k*t, (k+1)*t) (t = target_bytes),
///    the last ending at the file's size; the reader of each finds its first record
///    (OpenSplit), so planning reads nothing but the file's size;
///  - uncompressed CSV: the same cut, each boundary moved to the first row start at or after it,
///    found by one quote-aware pass over the file (csv::RowStartsAtOrAfter): a quoted field may
///    hold a newline, so no reader can find a row start from an arbitrary byte; empty ranges
///    are dropped;
///  - an Arrow IPC file: runs of consecutive record batches (its footer read); an Arrow IPC
///    stream: one split of the whole file.
/// An empty file gives one empty split. Every split records the file's size and modification
/// time. Errors: IOError / InvalidArgument naming a file that cannot be stat'ed or mapped or is
/// not regular, InvalidArgument for an input without a format, DataError for an Arrow file whose
/// footer does not read.
Result<std::vector<Split>> MakeSplits(const std::vector<SplitInput>& inputs, const SplitOptions& options);

}  // namespace recflow::dataset
