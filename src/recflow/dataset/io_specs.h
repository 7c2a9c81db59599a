// InputSpec and OutputSpec: how to read inputs and write a dataset, in the words convert's flags and a pipeline's read
// and write steps use, turned into InputOptions and SinkOptions through the format registry in one place.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/dataset/sink_options.h"
#include "recflow/formats/registry/format_args.h"

namespace recflow::dataset {

/// How inputs are read: the generic words, and the format words each format parses for itself.
struct InputSpec {
  std::string from = "auto";       ///< a registered input word (csv, jsonl, tfrecord, avro, arrow/feather), or auto (by content, then suffix)
  std::string schema_file;         ///< a JSON schema overriding inference
  std::vector<std::string> schema_hints;  ///< NAME:TYPE overriding inference for single columns
  int64_t block_size = int64_t{1} << 20;
  int64_t infer_rows = 10000;
  bool skip_bad = false;           ///< bad records are left out (as SkippedRecords) instead of failing
  /// Format words (formats::ReadSettings::args): CSV's delimiter, quote, header, null_values,
  /// comment; TFRecord's record_type, max_record_bytes, compression, verify_crc, skip_corrupt.
  formats::FormatArgs args;
};

/// The reader options `spec` describes: the format --from names, and every registered format's
/// read options parsed from the words (so a bad value fails before reading); InvalidArgument for
/// a bad value. The inputs and the schema file are on `file_system` (settings.file_system).
Result<InputOptions> MakeInputOptions(const InputSpec& spec, std::shared_ptr<FileSystem> file_system);

/// How a dataset is written.
struct OutputSpec {
  std::string output;              ///< the dataset directory
  std::string format = "tfrecord"; ///< a registered output word: tfrecord, jsonl, csv, arrow (IPC streams), feather (IPC files)
  std::string compression = "none";     ///< none, gzip, zlib; for formats that compress their bodies (Arrow): none, lz4, zstd
  int level = -1;                  ///< compression level, -1 = the codec's default
  int64_t shards = 0;              ///< a fixed number of shards (0 with no other sharding: 1)
  int64_t max_records_per_shard = 0;
  int64_t max_bytes_per_shard = 0;
  std::string naming = "beam";     ///< beam or spark file names
  std::string prefix = "part";
  std::vector<std::string> partition_by;
  std::string mode = "error";      ///< error, overwrite, append, overwrite-partitions
  bool sync = true;                ///< fsync before commit
  /// Format words (formats::WriteSettings::args): TFRecord's record_type and decimals, CSV's
  /// delimiter.
  formats::FormatArgs args;
};

/// The sink options `spec` describes; InvalidArgument for a bad or contradictory value.
Result<SinkOptions> MakeSinkOptions(const OutputSpec& spec);

}  // namespace recflow::dataset
