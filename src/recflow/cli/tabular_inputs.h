// Choosing how `cat` and `inspect` read: TFRecord records directly, or any format as a pipeline Source.
#pragma once

#include <memory>

#include "recflow/cli/inputs.h"
#include "recflow/core/result.h"
#include "recflow/formats/source.h"

namespace recflow::cli {

/// Opens the resolved inputs as one pipeline Source (dataset::OpenInputs) when they need it:
/// a file was detected as a format other than TFRecord, a directory holds Hive `key=value/`
/// partitions (whose columns only the Source adds back), or an input is not a regular file
/// (standard input, a pipe, a FIFO) and `pipes_as_source` says the caller reads its inputs
/// twice (a sample, then every record: the Source keeps its inference sample instead). Returns
/// nullptr when every input is plain TFRecord, for the record-level path with its sampled
/// inference and per-record warnings. The Source reads as inputs.spec says: TFRecord inputs with
/// the reader words of the flags and records of --record-type; --skip-corrupt also skips records
/// (rows, Avro blocks) that do not decode.
Result<std::unique_ptr<Source>> OpenTabularInputs(const Inputs& inputs, bool pipes_as_source);

}  // namespace recflow::cli
