// `recflow splits`: print the splits of the inputs, one JSON line each, for other processes to read with --split.
#pragma once

#include <cstdint>

#include "recflow/cli/inputs.h"
#include "recflow/cli/source_flags.h"
#include "recflow/cli/stdout_writer.h"
#include "recflow/core/status.h"

namespace recflow::cli {

/// Raw values of the splits command's flags.
struct SplitsFlags {
  InputFlags inputs;
  SourceFlags source;  ///< --from and the CSV dialect
  /// About this many bytes per split.
  int64_t split_size = int64_t{64} << 20;
};

/// Detects the inputs (as cat and convert do: directories, globs, Hive partitions, each file's
/// format and codec), cuts them with dataset::MakeSplits and prints each split's JSON
/// (dataset::SplitToJson) on its own line of `out`.
Status RunSplits(const SplitsFlags& flags, StdoutWriter* out);

}  // namespace recflow::cli
