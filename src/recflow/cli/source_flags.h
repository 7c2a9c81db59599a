// The flags that say how to read inputs of any format (shared by convert, cat and inspect).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "recflow/core/result.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/pipeline/input_source.h"

namespace recflow::cli {

/// Raw values of the input-format flags, as parsed by CLI11.
struct SourceFlags {
  std::string from = "auto";
  std::string schema_file;
  // CSV
  std::string delimiter = ",";
  std::string quote = "\"";
  bool no_header = false;
  std::vector<std::string> null_values;
  bool null_values_given = false;
  std::string comment;
  // every format
  int64_t block_size = int64_t{1} << 20;
  int64_t infer_rows = 10000;
};

/// Adds --from, --schema, --delimiter, --quote, --no-header, --null-values, --comment,
/// --block-size and --infer-rows to `command`.
void AddSourceFlags(CLI::App* command, SourceFlags* flags);

/// `value` as one character ("tab" and "\t" are a tab); InvalidArgument naming `flag` otherwise.
Result<char> SingleChar(const std::string& flag, const std::string& value);

/// Fills `in` from the flags: the format, the schema file, the CSV dialect, inference and unit
/// sizes; TFRecord records of `record_type`; bad records skipped (as SkippedRecords) when
/// `skip_bad` is set, else an error.
Status ConfigureInputs(const SourceFlags& flags, example::RecordType record_type, bool skip_bad,
                       pipeline::InputOptions* in);

}  // namespace recflow::cli
