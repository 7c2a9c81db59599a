// BatchQueue: a mutex, one condition variable for both sides, and the end of the queue as a status; the queue as a
// Source of the stage reading it.
#include "recflow/pipeline/batch_queue.h"

#include <algorithm>

#include "recflow/columnar/concatenate.h"

namespace recflow::pipeline {

BatchQueue::BatchQueue(size_t capacity) : capacity_(std::max<size_t>(capacity, 1)) {}

bool BatchQueue::Push(std::shared_ptr<RecordBatch> batch) { return Append(LinkItem{std::move(batch), std::nullopt}); }

bool BatchQueue::PushToken(const FlowToken& token) { return Append(LinkItem{nullptr, token}); }

bool BatchQueue::Append(LinkItem item) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return abandoned_ || items_.size() < capacity_; });
  if (abandoned_) return false;
  items_.push_back(std::move(item));
  high_water_ = std::max(high_water_, items_.size());
  changed_.notify_all();
  return true;
}

void BatchQueue::Close(const Status& status) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_ || abandoned_) return;
  closed_ = true;
  end_ = status;
  changed_.notify_all();
}

Result<LinkItem> BatchQueue::PopItem() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return abandoned_ || closed_ || !items_.empty(); });
  if (abandoned_) return end_;
  if (items_.empty()) {
    RETURN_NOT_OK(end_);
    return LinkItem{};
  }
  LinkItem item = std::move(items_.front());
  items_.pop_front();
  changed_.notify_all();
  return item;
}

Result<std::shared_ptr<RecordBatch>> BatchQueue::Pop() {
  ASSIGN_OR_RETURN(LinkItem item, PopItem());
  return std::move(item.batch);
}

void BatchQueue::Abandon(const Status& reason) {
  std::deque<LinkItem> dropped;  // released outside the lock
  std::lock_guard<std::mutex> lock(mutex_);
  if (abandoned_) return;
  abandoned_ = true;
  end_ = reason.ok() ? Status::Cancelled("the reader of the queue stopped") : reason;
  dropped.swap(items_);
  changed_.notify_all();
}

size_t BatchQueue::high_water() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return high_water_;
}

Result<std::unique_ptr<SourceUnit>> QueueSource::NextUnit() {
  ended_epoch_ = false;
  if (epoch_done_) {
    epoch_done_ = false;
    rows_ = false;
    ended_epoch_ = true;
    return std::unique_ptr<SourceUnit>();
  }
  ASSIGN_OR_RETURN(LinkItem item, queue_->PopItem());
  if (item.batch == nullptr && !item.token.has_value()) return std::unique_ptr<SourceUnit>();
  if (item.batch == nullptr && empty_ == nullptr) {
    ASSIGN_OR_RETURN(empty_, ConcatenateBatches(schema_, {}));
  }
  if (item.batch == nullptr) item.batch = empty_;
  rows_ = rows_ || item.batch->num_rows() > 0;
  epoch_done_ = epochs_ && rows_ && item.token.has_value() && item.token->kind == FlowToken::Kind::kWatermark;
  return MakeBatchUnit(std::move(item.batch), 0, item.token);
}

}  // namespace recflow::pipeline
