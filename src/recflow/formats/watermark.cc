// MinWatermark: the minimum over the partitions' watermarks, passed on only when it moves forward.
#include "recflow/formats/watermark.h"

#include <algorithm>

namespace recflow {

int64_t MinWatermark::Current() const {
  return marks_.empty() ? kEnded : *std::min_element(marks_.begin(), marks_.end());
}

std::optional<int64_t> MinWatermark::Advanced() {
  const int64_t now = Current();
  if (now <= passed_) return std::nullopt;
  passed_ = now;
  return now;
}

}  // namespace recflow
