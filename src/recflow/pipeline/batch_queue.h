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

/// A Source reading `queue` (of batches of `schema`) to its end: one unit per batch, and a unit
/// of no rows carrying each token; `name` names it in messages.
std::unique_ptr<Source> MakeQueueSource(std::string name, SchemaPtr schema, BatchQueue* queue);

}  // namespace recflow::pipeline
