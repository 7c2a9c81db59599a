// The flags that say how to read inputs of any format (shared by convert, cat, inspect and serve).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/formats/tfrecord/record_reader.h"

namespace recflow::cli {

/// Raw values of the input-format flags, as parsed by CLI11.
struct SourceFlags {
  std::string from = "auto";
  std::string schema_file;
  std::vector<std::string> schema_hints;
  std::string delimiter = ",";
  std::string quote = "\"";
  bool no_header = false;
  std::vector<std::string> null_values;
  std::string comment;
  int64_t block_size = int64_t{1} << 20;
  int64_t infer_rows = 10000;
  int64_t max_record_bytes = tfrecord::kDefaultMaxRecordBytes;
};

/// The read spec the flags describe: the generic words, and the format words (CSV dialect,
/// TFRecord's max_record_bytes and records of `record_type`, "example" or "sequence_example");
/// bad records skipped (as SkippedRecords) when `skip_bad` is set, else an error.
dataset::InputSpec InputSpecOf(const SourceFlags& flags, const std::string& record_type, bool skip_bad);

}  // namespace recflow::cli
