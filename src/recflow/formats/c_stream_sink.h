// CStreamSink: a Sink whose in-order Emit hands batches to a bounded queue that a consumer on another thread pops —
// the producing half of the C Data stream a Python user iterates (ExportRunStream is the other half).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/sink.h"

namespace recflow {

/// How much a CStreamSink holds between its producer and its consumer.
struct CStreamOptions {
  /// Batches queued at most; Emit blocks while the queue holds this many.
  int64_t max_batches = 4;
  /// Bytes of the buffers of the queued batches at most (a buffer shared by two columns counts
  /// twice); Emit blocks while adding a batch would pass it. A batch is always admitted into an
  /// empty queue, so one batch larger than this still flows.
  int64_t max_bytes = int64_t{64} << 20;
  /// Called on the producer's thread, without the queue's lock held, each time Emit finds the
  /// queue full and is about to wait (back-pressure metrics; tests). May be empty.
  std::function<void()> on_full;

  /// 4 batches, 64 MiB, no hook.
  static CStreamOptions Defaults() { return {}; }
  /// InvalidArgument unless both bounds are at least 1.
  Status Validate() const;
};

/// A Sink of batches of one schema into a bounded queue. Consume measures each batch, Emit (in
/// input order, one thread at a time) appends it to the queue and blocks while the queue is full;
/// Pop takes batches out on the consumer's thread, in the order they were emitted. Batches of zero
/// rows are not passed on. The producing side ends the stream with Close; the consuming side
/// gives up with Cancel. Thread-safe as the Sink contract requires, and Pop, Close and Cancel may
/// be called from any thread.
class CStreamSink final : public Sink {
 public:
  /// A sink whose input (and stream) schema is `schema`, bounded by `options` (validated by the
  /// caller).
  CStreamSink(SchemaPtr schema, CStreamOptions options);

  /// The schema of every batch the sink takes.
  const SchemaPtr& schema() const { return schema_; }

  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState* local,
                                                const std::shared_ptr<RecordBatch>& batch) const override;
  Status Merge(SinkPartial* partial) override;
  /// Queues the partial's batch, waiting while the queue is full; Cancelled once the consumer
  /// has cancelled or the sink was aborted (the batch is dropped).
  Status Emit(SinkPartial* partial) override;
  /// Drops the queued batches; every later Emit is refused (Cancelled). Idempotent.
  Status Abort() override;

  /// The consumer's next batch in emitted order, waiting while the queue is empty and the stream
  /// open; after the queued batches of a closed stream, nullptr when it was closed with OK and
  /// the closing error otherwise (every later call returns the same).
  Result<std::shared_ptr<RecordBatch>> Pop();
  /// Ends the stream (the producing run ended with `status`): Pop returns what is queued, then
  /// the end or `status`. The first call counts.
  void Close(Status status);
  /// The consumer is gone: drops the queued batches and makes Emit, waiting or not, return
  /// Cancelled. Idempotent.
  void Cancel();

 private:
  /// Refuses further Emits with `why` and drops the queued batches; under the lock.
  void RefuseLocked(const char* why);

  const SchemaPtr schema_;
  const CStreamOptions options_;

  std::mutex mutex_;
  std::condition_variable changed_;  ///< a batch queued or popped, the stream closed or cancelled
  std::deque<std::pair<std::shared_ptr<RecordBatch>, int64_t>> queue_;  ///< batches and their bytes
  int64_t queued_bytes_ = 0;
  const char* refused_ = nullptr;  ///< why Emit refuses (cancelled or aborted); null while it accepts
  bool closed_ = false;
  Status close_status_;
};

}  // namespace recflow
