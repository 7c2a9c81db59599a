// OpenInputs: command-line inputs (files, directories, globs; CSV, JSON Lines, TFRecord, Avro, Arrow) as one
// Source, with Hive partition directories turned back into columns.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/formats/avro/read_options.h"
#include "recflow/formats/csv/read_options.h"
#include "recflow/formats/jsonl/read_options.h"
#include "recflow/formats/sniff.h"
#include "recflow/formats/source.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"

namespace recflow::pipeline {

/// The input formats convert reads.
enum class InputFormat : uint8_t { kAuto, kCsv, kJsonl, kTfrecord, kAvro, kArrow };

/// Parses "csv", "jsonl" (or "json"), "tfrecord", "avro", "arrow" (or "feather": IPC files and
/// streams alike), or "auto"/"" (each file's content, then its suffix).
Result<InputFormat> ParseInputFormat(std::string_view name);

/// "csv", "jsonl", "tfrecord", "avro", "arrow"; "auto".
std::string_view InputFormatName(InputFormat format);

/// The format a file name implies (formats::ContentFromSuffix, compression suffixes ignored);
/// NotFound otherwise.
Result<InputFormat> InputFormatFromName(std::string_view path);

/// What detection found for one input: the format it is read as and what its bytes showed.
struct DetectedInput {
  InputFormat format = InputFormat::kAuto;
  formats::Sniffed sniffed;
};

/// Sniffs `path` (formats::SniffFile: standard input "-" and pipes are peeked, then still read
/// from their first byte) and decides its format: `forced` unless it is kAuto (--from), else
/// the content (an empty input with no telling suffix is TFRecord: zero records). A codec or a
/// format recflow does not read is a DataError naming the file and what was found (a forced
/// format skips the content check), as is gzip/zlib around Avro or Arrow IPC; bytes that say
/// nothing, with no telling suffix, are NotFound ("pass --from").
Result<DetectedInput> DetectInputFormat(const std::string& path, InputFormat forced = InputFormat::kAuto);

/// How each input file is read.
struct InputOptions {
  /// The format of every file, or kAuto to detect it (all files must agree).
  InputFormat format = InputFormat::kAuto;
  csv::ReadOptions csv = csv::ReadOptions::Defaults();
  jsonl::ReadOptions jsonl = jsonl::ReadOptions::Defaults();
  tfrecord::SourceOptions tfrecord = tfrecord::SourceOptions::Defaults();
  avro::ReadOptions avro = avro::ReadOptions::Defaults();
  /// Column types overriding inference (also set in the csv, jsonl and tfrecord options); Avro
  /// and Arrow files carry their own schema and refuse hints. Null: none.
  SchemaPtr type_hints;
};

/// Expands `args` (ExpandInputs: files, directories walked recursively skipping `_`/`.` names,
/// globs; "-" = stdin), detects each file's format (DetectInputFormat; all must agree) and
/// compression, and reads the files one after the other
/// as a single Source. The schema comes from the first file (explicit or inferred); later files
/// are read with that schema. Files under a directory argument with `key=value/` directories
/// get those columns appended (DiscoverDatasetPartitions: the types the dataset's schema file
/// records, else inferred as int64, float64 or utf8; null for `__HIVE_DEFAULT_PARTITION__`);
/// every directory argument must have the same partition columns, and partitioned and
/// unpartitioned inputs cannot be mixed (DataError). Inputs that hold no data file (a committed
/// partitioned dataset of zero rows) or only empty files (an unpartitioned one, uncompressed)
/// read as no rows with the columns the first directory argument's schema file records (data
/// columns, then partition columns); without a schema file, no data file is a DataError, and
/// empty files are read as usual.
Result<std::unique_ptr<Source>> OpenInputs(const std::vector<std::string>& args, const InputOptions& options);

}  // namespace recflow::pipeline
