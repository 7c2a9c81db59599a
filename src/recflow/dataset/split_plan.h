// MakeSplits: input files cut into splits of about a target size, at boundaries each format can find again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/split.h"
#include "recflow/formats/csv/read_options.h"

namespace recflow::dataset {

/// One input file to split, its format and codec already detected.
struct SplitInput {
  /// A regular file (valid UTF-8 path).
  std::string path;
  /// "csv", "jsonl", "tfrecord", "avro" or "arrow".
  std::string format;
  /// Its codec (CompressionName: "none", "gzip", "zlib", ...).
  std::string compression = "none";
  /// For "arrow": an IPC file (split by record batches from its footer), not a stream.
  bool arrow_file = false;
  /// Its Hive partition values, as Split::partition.
  std::vector<SplitPartitionValue> partition;
};

/// How MakeSplits cuts.
struct SplitOptions {
  /// About this many bytes per split (a split's records may run past its end; an Arrow file's
  /// splits are whole record batches adding up to at least this, the last fewer).
  int64_t target_bytes = int64_t{64} << 20;
  /// The dialect CSV rows are found with (a split must begin at a row start).
  csv::Dialect csv_dialect;
  /// 64 MiB splits, the default CSV dialect.
  static SplitOptions Defaults() { return {}; }
  /// InvalidArgument unless target_bytes >= 1.
  Status Validate() const;
};

/// Splits every input, in order, each file's splits in file order:
///  - uncompressed TFRecord, JSON Lines and Avro: byte ranges [k*t, (k+1)*t) (t = target_bytes),
///    the last ending at the file's size; the reader of each finds its first record
///    (OpenSplit), so planning reads nothing but the file's size;
///  - uncompressed CSV: the same cut, each boundary moved to the first row start at or after it,
///    found by one quote-aware pass over the file (csv::RowStartsAtOrAfter): a quoted field may
///    hold a newline, so no reader can find a row start from an arbitrary byte; empty ranges
///    are dropped;
///  - an Arrow IPC file: runs of consecutive record batches (its footer read);
///  - a compressed file (one gzip or zlib stream) or an Arrow IPC stream: one split of the
///    whole file, since neither can be entered anywhere but at its start.
/// An empty file gives one empty split. Every split records the file's size and modification
/// time. Errors: IOError / InvalidArgument naming a file that cannot be stat'ed or mapped or is
/// not regular, InvalidArgument for an unknown format, DataError for an Arrow file whose footer
/// does not read.
Result<std::vector<Split>> MakeSplits(const std::vector<SplitInput>& inputs, const SplitOptions& options);

}  // namespace recflow::dataset
