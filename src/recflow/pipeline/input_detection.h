// Deciding what command-line inputs hold: their format (content-sniffed or --from), codec and partitions, once per command.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/dataset/partition_discovery.h"
#include "recflow/formats/sniff.h"
#include "recflow/formats/tfrecord/record_reader.h"

namespace recflow::pipeline {

/// The input formats convert reads.
enum class InputFormat : uint8_t { kAuto, kCsv, kJsonl, kTfrecord, kAvro, kArrow };

/// Parses "csv", "jsonl" (or "json"), "tfrecord", "avro", "arrow" (or "feather": IPC files and
/// streams alike), or "auto"/"" (each file's content, then its suffix).
Result<InputFormat> ParseInputFormat(std::string_view name);

/// "csv", "jsonl", "tfrecord", "avro", "arrow"; "auto".
std::string_view InputFormatName(InputFormat format);

/// What detection found for one input: the format it is read as and what its bytes showed.
struct DetectedInput {
  InputFormat format = InputFormat::kAuto;
  formats::Sniffed sniffed;
  /// True for a regular file, which can be opened and read again; false for standard input, a
  /// pipe, a FIFO or a device, which must be read once (their sniffed head is kept for it).
  bool rereadable = false;
};

/// Sniffs `path` on `fs` (formats::SniffFile: standard input "-" and pipes are peeked, then still read
/// from their first byte) and decides its format: `forced` unless it is kAuto (--from), else
/// the content (an empty input with no telling suffix is TFRecord: zero records). A codec or a
/// format recflow does not read is a DataError naming the file and what was found (a forced
/// format skips the content check), as is gzip/zlib around Avro or Arrow IPC; bytes that say
/// nothing, with no telling suffix, are NotFound ("pass --from").
Result<DetectedInput> DetectInputFormat(const std::string& path, InputFormat forced = InputFormat::kAuto,
                                        FileSystem& fs = *LocalFileSystem::Instance());

/// One input file: its path, its Hive partition values and what detection found.
struct ResolvedInput {
  std::string path;
  std::vector<dataset::PartitionValue> partition;
  DetectedInput detected;
};

/// Every input of a command, expanded and detected once, for OpenInputs and the commands that
/// report on them.
struct ResolvedInputs {
  std::vector<ResolvedInput> files;
  /// The partition columns of the directory arguments (no fields: none).
  SchemaPtr partition_schema;
  /// The format every file is read as when --from named it; kAuto when each was detected.
  InputFormat forced = InputFormat::kAuto;
  /// When the inputs hold no rows — no data file (a committed partitioned dataset of zero rows)
  /// or only empty regular files (an unpartitioned one, uncompressed) — the columns the first
  /// directory argument's schema file records (data columns, then partition columns), which
  /// OpenInputs reads as zero rows; nullptr otherwise.
  SchemaPtr empty_dataset_schema;
  /// The arguments joined with ", ": how messages name the inputs as a whole.
  std::string description;
};

/// Expands `args` on `fs` (ExpandInputs: files, directories walked recursively skipping `_`/`.` names,
/// globs; "-" = stdin), discovers the Hive `key=value/` partitions under each directory argument
/// (DiscoverDatasetPartitions: the types the dataset's schema file records, else inferred as
/// int64, float64 or utf8; null for `__HIVE_DEFAULT_PARTITION__`) and detects each file
/// (DetectInputFormat with `forced`). Every directory argument must have the same partition
/// columns, partitioned and unpartitioned inputs cannot be mixed (DataError), and all files must
/// have one format (InvalidArgument naming two of them: "pass --from"). Arguments that hold no
/// data file and no schema file are a DataError (nothing says what the columns are).
Result<ResolvedInputs> DetectInputs(const std::vector<std::string>& args, InputFormat forced,
                                    FileSystem& fs = *LocalFileSystem::Instance());

/// `options` reading `input` with the codec detection found in it, unless they name one
/// (compression_auto false: --compression): the one detector every reader goes by.
tfrecord::ReaderOptions WithDetectedCodec(tfrecord::ReaderOptions options, const DetectedInput& input);

}  // namespace recflow::pipeline
