// BatchQueue: a bounded, blocking hand-off of record batches (and flow tokens) from one producer thread to one
// consumer — how a grouped output flows into the stage that reads it while the output is still being made.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/source.h"

namespace recflow::pipeline {

/// What passes between stages: a batch of rows, or a token (a windowed grouping's output
/// watermark, the processing-time clock) that follows the batches before it.
struct LinkItem {
  std::shared_ptr<RecordBatch> batch;  ///< null for a token
  std::optional<FlowToken> token;
};

/// A FIFO of at most `capacity` items (batches or tokens) between one producer and one consumer. The producer
/// waits while it is full, the consumer while it is empty; either side can end it (Close,
/// Abandon), which wakes the other.
class BatchQueue {
 public:
  /// A queue holding at most `capacity` (> 0) batches.
  explicit BatchQueue(size_t capacity);
  BatchQueue(const BatchQueue&) = delete;
  BatchQueue& operator=(const BatchQueue&) = delete;

  /// Waits for room, then appends `batch`. False (the batch dropped) once the queue was
  /// abandoned: nobody reads it any more.
  bool Push(std::shared_ptr<RecordBatch> batch);
  /// Waits for room, then appends `token`, as Push does a batch.
  bool PushToken(const FlowToken& token);
  /// Ends the queue from the producer's side: OK after the last batch, or the producer's error,
  /// which the consumer gets once it has taken the batches pushed before. Later calls are ignored.
  void Close(const Status& status);
  /// Waits for the next item: a batch or a token; an item with neither after the last one of a
  /// queue closed with OK; the error it was closed with, or the reason it was abandoned.
  Result<LinkItem> PopItem();
  /// PopItem for a queue fed batches only: the batch, or nullptr after the last one.
  Result<std::shared_ptr<RecordBatch>> Pop();
  /// Ends the queue from the consumer's side (it stopped reading, or the run stopped it): the
  /// queued batches are released, Push returns false and Pop returns `reason` (not OK) from now
  /// on. Later calls are ignored.
  void Abandon(const Status& reason);

  /// The bound given at construction.
  size_t capacity() const { return capacity_; }
  /// The most items the queue held at once so far (at most capacity()).
  size_t high_water() const;

 private:
  bool Append(LinkItem item);

  const size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<LinkItem> items_;
  bool closed_ = false;     // by the producer: `end_` follows the queued items
  Status end_;
  bool abandoned_ = false;  // by the consumer: `end_` is the reason
  size_t high_water_ = 0;
};

/// A Source reading a BatchQueue (of batches of its schema) to its end: one unit per batch, and a
/// unit of no rows carrying each token. With `epochs`, the input also ends after each watermark
/// that follows rows (an epoch of an unbounded run); a later NextUnit goes on with the next
/// epoch, and ended_epoch() tells the two ends apart.
class QueueSource final : public Source {
 public:
  /// Reads `queue` (outlives it); `name` names it in messages.
  QueueSource(std::string name, SchemaPtr schema, BatchQueue* queue, bool epochs = false)
      : name_(std::move(name)), schema_(std::move(schema)), queue_(queue), epochs_(epochs) {}
  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override;
  /// True when the last end of input NextUnit gave was an epoch's, not the queue's.
  bool ended_epoch() const { return ended_epoch_; }

 private:
  std::string name_;
  SchemaPtr schema_;
  BatchQueue* queue_;
  bool epochs_;
  bool rows_ = false;         // rows came since the last epoch
  bool epoch_done_ = false;   // the next NextUnit ends the epoch
  bool ended_epoch_ = false;
  std::shared_ptr<RecordBatch> empty_;  // the batch of a token's unit
};

}  // namespace recflow::pipeline
