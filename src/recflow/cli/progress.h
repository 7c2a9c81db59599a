// ProgressBar: a one-line live display on stderr (records/s, MB/s, ETA) while a job runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "recflow/cli/live_display.h"
#include "recflow/pipeline/stage_executor.h"

namespace recflow::cli {

/// Redraws a progress line on stderr every 200 ms from a stage's progress, while alive. Does
/// nothing when `enabled` is false (stderr not a terminal).
class ProgressBar {
 public:
  /// `total_bytes` is the input size for the ETA (0 when unknown, e.g. stdin).
  ProgressBar(const pipeline::StageProgress* progress, int64_t total_bytes, bool enabled);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  std::string Line() const;
  const pipeline::StageProgress* progress_;
  int64_t total_bytes_;
  std::chrono::steady_clock::time_point start_;
  LiveDisplay display_;  // last: its thread starts after, and stops before, the members it reads
};

}  // namespace recflow::cli
