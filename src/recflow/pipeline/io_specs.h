// InputSpec and OutputSpec: how to read inputs and write a dataset, in the words convert's flags and a pipeline's read
// and write steps use, turned into InputOptions and SinkOptions in one place.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/sink_options.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/formats/tfrecord/record_reader.h"
#include "recflow/pipeline/input_source.h"

namespace recflow::pipeline {

/// How inputs are read (every format; the CSV dialect where it applies).
struct InputSpec {
  std::string from = "auto";       ///< csv, jsonl, tfrecord, avro, arrow/feather, or auto (by content, then suffix)
  std::string schema_file;         ///< a JSON schema overriding inference
  std::vector<std::string> schema_hints;  ///< NAME:TYPE overriding inference for single columns
  std::string record_type = "example";  ///< TFRecord records: example or sequence_example
  std::string delimiter = ",";     ///< CSV field delimiter (one character, or "tab")
  std::string quote = "\"";
  bool no_header = false;
  std::vector<std::string> null_values;  ///< texts read as null besides the empty field
  std::string comment;
  int64_t block_size = int64_t{1} << 20;
  int64_t infer_rows = 10000;
  /// TFRecord: the reader's memory cap, the largest record it buffers (ReaderOptions).
  int64_t max_record_bytes = tfrecord::kDefaultMaxRecordBytes;
  bool skip_bad = false;           ///< bad records are left out (as SkippedRecords) instead of failing
};

/// `value` as one character ("tab" and "\t" are a tab); InvalidArgument naming `what` otherwise.
Result<char> SingleChar(const std::string& what, const std::string& value);

/// The reader options `spec` describes; InvalidArgument for a bad value.
Result<InputOptions> MakeInputOptions(const InputSpec& spec);

/// How a dataset is written.
struct OutputSpec {
  std::string output;              ///< the dataset directory
  std::string format = "tfrecord"; ///< tfrecord, jsonl, csv, arrow (IPC streams), feather (IPC files)
  std::string record_type = "example";  ///< tfrecord: example or sequence_example
  std::string decimals = "string";      ///< tfrecord: decimal columns as text (string) or float
  std::string compression = "none";     ///< none, gzip, zlib; Arrow bodies: none, lz4, zstd
  int level = -1;                  ///< compression level, -1 = the codec's default
  int64_t shards = 0;              ///< a fixed number of shards (0 with no other sharding: 1)
  int64_t max_records_per_shard = 0;
  int64_t max_bytes_per_shard = 0;
  std::string naming = "beam";     ///< beam or spark file names
  std::string prefix = "part";
  std::vector<std::string> partition_by;
  std::string mode = "error";      ///< error, overwrite, append, overwrite-partitions
  bool sync = true;                ///< fsync before commit
  std::string delimiter = ",";     ///< csv output
};

/// The sink options `spec` describes; InvalidArgument for a bad or contradictory value.
Result<dataset::SinkOptions> MakeSinkOptions(const OutputSpec& spec);

}  // namespace recflow::pipeline
