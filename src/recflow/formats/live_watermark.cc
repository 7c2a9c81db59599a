// LiveWatermark: latest event time less the allowance per partition, idle partitions on the clock, the minimum.
#include "recflow/formats/live_watermark.h"

namespace recflow {

Status LiveWatermarkOptions::Validate() const {
  if (out_of_orderness < 0) return Status::InvalidArgument("out_of_orderness must be >= 0 ms");
  if (idle_after == 0) return Status::InvalidArgument("idle_after must be > 0 ms (or negative: never idle)");
  return Status::OK();
}

size_t LiveWatermark::AddPartition() {
  partitions_.push_back(Partition{MinWatermark::kNone, clock_->NowMillis(), false});
  return marks_.Add();
}

void LiveWatermark::Observe(size_t p, int64_t event_time) {
  Partition& partition = partitions_[p];
  partition.last_row = clock_->NowMillis();
  if (event_time > partition.latest) partition.latest = event_time;
}

void LiveWatermark::EndPartition(size_t p) {
  partitions_[p].ended = true;
  marks_.End(p);
}

std::vector<FlowToken> LiveWatermark::Tick() {
  std::vector<FlowToken> tokens;
  const int64_t now = clock_->NowMillis();
  if (now > ticked_) {
    ticked_ = now;
    tokens.push_back(FlowToken{FlowToken::Kind::kProcessingTime, now});
  }
  for (size_t p = 0; p < partitions_.size(); ++p) {
    const Partition& partition = partitions_[p];
    if (partition.ended) continue;
    if (partition.latest != MinWatermark::kNone) marks_.Advance(p, partition.latest - options_.out_of_orderness);
    if (options_.idle_after > 0 && now - partition.last_row >= options_.idle_after) {
      marks_.Advance(p, now - options_.out_of_orderness);
    }
  }
  if (std::optional<int64_t> moved = marks_.Advanced(); moved.has_value() && *moved != MinWatermark::kEnded) {
    tokens.push_back(FlowToken{FlowToken::Kind::kWatermark, *moved});
  }
  return tokens;
}

}  // namespace recflow
