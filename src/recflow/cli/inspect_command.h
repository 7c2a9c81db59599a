// `recflow inspect`: counts, sizes, compression, inferred schema and per-feature statistics.
#pragma once

#include <string>
#include <vector>

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
  /// GDAL configuration options (KEY=VALUE) for raster inputs, as read_raster's `config`.
  std::vector<std::string> config;
};

/// Reads every record of every input and writes the report to `out`.
Status RunInspect(const InspectFlags& flags, StdoutWriter* out);

}  // namespace recflow::cli
