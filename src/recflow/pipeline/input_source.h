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
#include "recflow/formats/source.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"

namespace recflow::pipeline {

/// The input formats convert reads.
enum class InputFormat : uint8_t { kAuto, kCsv, kJsonl, kTfrecord, kAvro, kArrow };

/// Parses "csv", "jsonl" (or "json"), "tfrecord", "avro", "arrow" (or "feather": IPC files and
/// streams alike), or "auto"/"" (from each file's suffix).
Result<InputFormat> ParseInputFormat(std::string_view name);

/// The format a file name implies, compression suffixes (.gz, .zz, .zlib) ignored: .csv/.tsv,
/// .jsonl/.ndjson/.json, .tfrecord/.tfrecords/.tfr, .avro, .arrow/.arrows/.feather/.ipc;
/// NotFound otherwise.
Result<InputFormat> InputFormatFromName(std::string_view path);

/// InputFormatFromName, else what the first bytes say: Arrow IPC for a file starting with
/// `ARROW1` or a stream starting with the continuation marker; NotFound otherwise.
Result<InputFormat> DetectInputFormat(const std::string& path);

/// How each input file is read.
struct InputOptions {
  /// The format of every file, or kAuto to go by suffix (all files must agree).
  InputFormat format = InputFormat::kAuto;
  csv::ReadOptions csv = csv::ReadOptions::Defaults();
  jsonl::ReadOptions jsonl = jsonl::ReadOptions::Defaults();
  tfrecord::SourceOptions tfrecord = tfrecord::SourceOptions::Defaults();
  avro::ReadOptions avro = avro::ReadOptions::Defaults();
};

/// Expands `args` (ExpandInputs: files, directories walked recursively skipping `_`/`.` names,
/// globs; "-" = stdin, which needs an explicit format) and reads the files one after the other
/// as a single Source. The schema comes from the first file (explicit or inferred); later files
/// are read with that schema. Files under a directory argument with `key=value/` directories
/// get those columns appended (DiscoverDatasetPartitions: the types the dataset's schema file
/// records, else inferred as int64, float64 or utf8; null for `__HIVE_DEFAULT_PARTITION__`);
/// every directory argument must have the same partition columns, and partitioned and
/// unpartitioned inputs cannot be mixed (DataError).
Result<std::unique_ptr<Source>> OpenInputs(const std::vector<std::string>& args, const InputOptions& options);

}  // namespace recflow::pipeline
