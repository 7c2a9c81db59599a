// ProgressBar: the line "records, rate, MB/s, percent, ETA" that its LiveDisplay redraws.
#include "recflow/cli/progress.h"

#include <fmt/core.h>

#include <algorithm>

namespace recflow::cli {

ProgressBar::ProgressBar(const pipeline::StageProgress* progress, int64_t total_bytes, bool enabled)
    : progress_(progress),
      total_bytes_(total_bytes),
      start_(std::chrono::steady_clock::now()),
      display_(std::chrono::milliseconds(200), [this] { return Line(); }, enabled) {}

std::string ProgressBar::Line() const {
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const int64_t records = progress_->records.load(std::memory_order_relaxed);
  const int64_t bytes = progress_->input_bytes.load(std::memory_order_relaxed);
  const double rate = seconds > 0 ? static_cast<double>(records) / seconds : 0;
  const double mbps = seconds > 0 ? static_cast<double>(bytes) / 1e6 / seconds : 0;
  std::string line = fmt::format("{} records  {:.0f} rec/s  {:.1f} MB/s", records, rate, mbps);
  if (total_bytes_ > 0 && bytes > 0) {
    const double fraction = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(total_bytes_));
    const double eta = seconds * (1 - fraction) / fraction;
    const int width = 20;
    const int filled = static_cast<int>(fraction * width);
    line += fmt::format("  [{}{}] {:3.0f}%  ETA {:.0f}s", std::string(static_cast<size_t>(filled), '#'),
                        std::string(static_cast<size_t>(width - filled), '.'), fraction * 100, eta);
  }
  const int64_t skipped = progress_->skipped.load(std::memory_order_relaxed);
  if (skipped > 0) line += fmt::format("  {} skipped", skipped);
  return line;
}

}  // namespace recflow::cli
