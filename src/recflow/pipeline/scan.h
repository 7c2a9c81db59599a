// ScanSource: decode every unit of a Source on all cores and drop the batches — the "input to
// columns" half of convert, for benchmarks and validation passes.
#pragma once

#include <cstdint>

#include "recflow/core/exec_context.h"
#include "recflow/core/result.h"
#include "recflow/formats/source.h"

namespace recflow::pipeline {

/// What a scan saw.
struct ScanStats {
  int64_t records = 0;      ///< rows decoded
  int64_t skipped = 0;      ///< records the source left out
  int64_t input_bytes = 0;  ///< input bytes of the units
};

/// Reads units in order and decodes them on the context's threads, at most 2 × threads + 2 in
/// flight. The first error in input order is returned (Cancelled on a stop request).
Result<ScanStats> ScanSource(const ExecContext& context, Source* source);

}  // namespace recflow::pipeline
