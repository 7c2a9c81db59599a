// CStreamSink: batches measured in Consume, queued in Emit under both bounds, popped by the consumer.
#include "recflow/formats/c_stream_sink.h"

#include <string>
#include <utility>

namespace recflow {

namespace {

/// What Consume hands to Emit: the batch and the bytes it holds.
struct QueuedBatch final : SinkPartial {
  std::shared_ptr<RecordBatch> batch;
  int64_t bytes = 0;
};

int64_t BufferBytes(const ArrayData& data) {
  int64_t bytes = 0;
  for (const auto& buffer : data.buffers) {
    if (buffer != nullptr) bytes += buffer->size();
  }
  for (const auto& child : data.children) bytes += BufferBytes(*child);
  if (data.dictionary != nullptr) bytes += BufferBytes(*data.dictionary);
  return bytes;
}

}  // namespace

Status CStreamOptions::Validate() const {
  if (max_batches < 1) return Status::InvalidArgument("a C stream's queue needs max_batches >= 1");
  if (max_bytes < 1) return Status::InvalidArgument("a C stream's queue needs max_bytes >= 1");
  return Status::OK();
}

CStreamSink::CStreamSink(SchemaPtr schema, CStreamOptions options)
    : schema_(std::move(schema)), options_(std::move(options)) {}

Result<std::unique_ptr<SinkPartial>> CStreamSink::Consume(SinkLocalState*,
                                                           const std::shared_ptr<RecordBatch>& batch) const {
  auto partial = std::make_unique<QueuedBatch>();
  if (batch->num_rows() == 0) return std::unique_ptr<SinkPartial>(std::move(partial));
  partial->batch = batch;
  for (const auto& column : batch->columns()) partial->bytes += BufferBytes(*column);
  return std::unique_ptr<SinkPartial>(std::move(partial));
}

Status CStreamSink::Merge(SinkPartial*) { return Status::OK(); }

Status CStreamSink::Emit(SinkPartial* partial) {
  auto* queued = static_cast<QueuedBatch*>(partial);
  if (queued->batch == nullptr) return Status::OK();
  std::unique_lock<std::mutex> lock(mutex_);
  const auto full = [&] {
    return !queue_.empty() && (static_cast<int64_t>(queue_.size()) >= options_.max_batches ||
                               queued_bytes_ + queued->bytes > options_.max_bytes);
  };
  while (refused_ == nullptr && full()) {
    if (options_.on_full) {
      lock.unlock();
      options_.on_full();
      lock.lock();
      if (refused_ != nullptr || !full()) break;
    }
    changed_.wait(lock);
  }
  if (refused_ != nullptr) return Status::Cancelled(refused_);
  queued_bytes_ += queued->bytes;
  queue_.emplace_back(std::move(queued->batch), queued->bytes);
  changed_.notify_all();
  return Status::OK();
}

Status CStreamSink::Abort() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (refused_ == nullptr) RefuseLocked("the C stream's output was aborted");
  return Status::OK();
}

void CStreamSink::Cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (refused_ == nullptr) RefuseLocked("the C stream's consumer released it");
}

void CStreamSink::RefuseLocked(const char* why) {
  refused_ = why;
  queue_.clear();
  queued_bytes_ = 0;
  changed_.notify_all();
}

void CStreamSink::Close(Status status) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (closed_) return;
  closed_ = true;
  close_status_ = std::move(status);
  changed_.notify_all();
}

Result<std::shared_ptr<RecordBatch>> CStreamSink::Pop() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return !queue_.empty() || closed_; });
  if (queue_.empty()) {
    if (!close_status_.ok()) return close_status_;
    return std::shared_ptr<RecordBatch>();
  }
  auto [batch, bytes] = std::move(queue_.front());
  queue_.pop_front();
  queued_bytes_ -= bytes;
  changed_.notify_all();
  return batch;
}

}  // namespace recflow
