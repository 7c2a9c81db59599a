// The flags that say how to read inputs of any format (shared by convert, cat and inspect).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/pipeline/io_specs.h"

namespace recflow::cli {

/// Raw values of the input-format flags, as parsed by CLI11 (record_type and skip_bad are
/// set by each command from its own flags).
using SourceFlags = pipeline::InputSpec;

/// Fills `in` from the flags: the format, the schema file, the CSV dialect, inference and unit
/// sizes; TFRecord records of `record_type` ("example" or "sequence_example"); bad records
/// skipped (as SkippedRecords) when `skip_bad` is set, else an error.
Status ConfigureInputs(const SourceFlags& flags, const std::string& record_type, bool skip_bad,
                       pipeline::InputOptions* in);

}  // namespace recflow::cli
