// `recflow inspect`: counts, sizes, compression, inferred schema and per-feature statistics.
#pragma once

#include "recflow/cli/inputs.h"
#include "recflow/cli/source_flags.h"
#include "recflow/cli/stdout_writer.h"
#include "recflow/core/status.h"

namespace recflow::cli {

/// Flags of `recflow inspect`.
struct InspectFlags {
  InputFlags inputs;
  SourceFlags source;  ///< format and CSV flags for non-TFRecord inputs
  bool json = false;
};

/// Reads every record of every input and writes the report to `out`.
Status RunInspect(const InspectFlags& flags, StdoutWriter* out);

}  // namespace recflow::cli
