// ProgressBar: a one-line live display on stderr (records/s, MB/s, ETA) while a job runs.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "recflow/pipeline/convert_job.h"

namespace recflow::cli {

/// Redraws a progress line on stderr every 200 ms from a ConvertProgress, while alive. Does
/// nothing when `enabled` is false (stderr not a terminal).
class ProgressBar {
 public:
  /// `total_bytes` is the input size for the ETA (0 when unknown, e.g. stdin).
  ProgressBar(const pipeline::ConvertProgress* progress, int64_t total_bytes, bool enabled);
  /// Stops the display and clears its line.
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  void Run();
  void Draw() const;
  const pipeline::ConvertProgress* progress_;
  int64_t total_bytes_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace recflow::cli
