// BatchQueue: a mutex, one condition variable for both sides, and the end of the queue as a status.
#include "recflow/pipeline/batch_queue.h"

#include <algorithm>

namespace recflow::pipeline {

BatchQueue::BatchQueue(size_t capacity) : capacity_(std::max<size_t>(capacity, 1)) {}

bool BatchQueue::Push(std::shared_ptr<RecordBatch> batch) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return abandoned_ || batches_.size() < capacity_; });
  if (abandoned_) return false;
  batches_.push_back(std::move(batch));
  high_water_ = std::max(high_water_, batches_.size());
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

Result<std::shared_ptr<RecordBatch>> BatchQueue::Pop() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return abandoned_ || closed_ || !batches_.empty(); });
  if (abandoned_) return end_;
  if (batches_.empty()) {
    RETURN_NOT_OK(end_);
    return std::shared_ptr<RecordBatch>();
  }
  std::shared_ptr<RecordBatch> batch = std::move(batches_.front());
  batches_.pop_front();
  changed_.notify_all();
  return batch;
}

void BatchQueue::Abandon(const Status& reason) {
  std::deque<std::shared_ptr<RecordBatch>> dropped;  // released outside the lock
  std::lock_guard<std::mutex> lock(mutex_);
  if (abandoned_) return;
  abandoned_ = true;
  end_ = reason.ok() ? Status::Cancelled("the reader of the queue stopped") : reason;
  dropped.swap(batches_);
  changed_.notify_all();
}

size_t BatchQueue::high_water() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return high_water_;
}

}  // namespace recflow::pipeline
