// RunConvert: the convert job as one stage of the stage executor feeding one DatasetSink — read units → decode,
// project, encode (parallel) → assign to files (in order) → compress (parallel) → write (in order) → commit.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/dataset_sink.h"
#include "recflow/formats/source.h"
#include "recflow/ops/columns/select.h"
#include "recflow/pipeline/stage_executor.h"

namespace recflow::pipeline {

/// Live counters of a running job (see StageProgress).
using ConvertProgress = StageProgress;

/// How RunConvert runs (its threads and stop token are the ExecContext's).
struct ConvertOptions {
  /// Units in flight at once (bounds memory); 0 = 2 × threads + 2.
  int max_in_flight = 0;
  /// The source's columns to keep, in output order; none: all. The sink must have been opened
  /// for its output schema.
  std::optional<ops::Projection> projection;
  /// Called in input order for each record a source left out, with the record's index in the
  /// whole input (rebased into its error too).
  std::function<void(const SkippedRecord& record)> on_skipped;
  /// Updated as the job runs (may be null).
  ConvertProgress* progress = nullptr;
  /// Every column, 2 × threads + 2 units in flight.
  static ConvertOptions Defaults() { return {}; }
};

/// What a finished job did.
struct ConvertStats {
  int64_t input_records = 0;     ///< records read (written + skipped)
  int64_t skipped_records = 0;   ///< records left out by the source
  int64_t input_bytes = 0;       ///< input bytes consumed
  int threads = 0;               ///< worker threads used
  dataset::SinkStats sink;       ///< what was written
};

/// Reads every unit of `source`, writes its records into `sink` and commits the sink. The first
/// error in input order stops the job; the sink is then aborted (the output is left as it was)
/// and the error returned with its record index counted from the start of the input. A stop
/// requested on the context's token before the commit's point of no return does the same and
/// returns Cancelled, saying what was removed (AbortOutputs). Output does not depend on the
/// number of threads.
Result<ConvertStats> RunConvert(const ExecContext& context, Source* source, dataset::DatasetSink* sink,
                                const ConvertOptions& options);

}  // namespace recflow::pipeline
