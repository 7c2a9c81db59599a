// `recflow cat`: records as JSON Lines, values following the inferred schema.
#pragma once

#include <cstdint>

#include "recflow/cli/inputs.h"
#include "recflow/cli/split_inputs.h"
#include "recflow/cli/source_flags.h"
#include "recflow/cli/stdout_writer.h"
#include "recflow/core/status.h"

namespace recflow::cli {

/// Flags of `recflow cat`.
struct CatFlags {
  InputFlags inputs;
  SourceFlags source;  ///< format and CSV flags for non-TFRecord inputs
  int64_t limit = -1;  ///< rows to print; -1 = all
  bool infer_all = false;
  SplitFlags splits;   ///< --split / --splits-from: read those instead of inputs
};

/// Records sampled for schema inference unless --infer-all, spread evenly over the inputs.
inline constexpr int64_t kInferenceSample = 10000;
/// Rows decoded per batch before they are printed.
inline constexpr int64_t kCatBatchRows = 1024;

/// Infers the schema from a sample, then prints one JSON object per record to `out`. Stops
/// early, without error, after --limit rows or when the reader of `out` goes away.
Status RunCat(const CatFlags& flags, StdoutWriter* out);

}  // namespace recflow::cli
