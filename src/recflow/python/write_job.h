// WriteJob: what recflow.write runs — batches handed over one by one into a bounded queue, read by a read → write
// pipeline (the convert's DatasetSink, staged and committed as the CLI commits) on a thread of its own.
#pragma once

#include <memory>
#include <thread>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/core/stop_token.h"
#include "recflow/dataset/dataset_sink.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/pipeline/batch_queue.h"

namespace recflow::python {

/// One dataset written from batches a caller pushes (the Python module's recflow.write): the
/// pipeline read → write over a source that pops a BatchQueue, run by RunPipeline on the job's
/// thread with `threads` workers. The dataset is committed only when Finish succeeds; Abort, a
/// failed run or destroying an unfinished job leaves the output as it was. One producer thread.
class WriteJob {
 public:
  /// Checks `spec` (MakeSinkOptions, then the layout for `schema`: partition columns present,
  /// the format takes every data column) and starts the run. The output is opened by the run
  /// (save mode checked, stale staging removed) before the first batch is read.
  static Result<std::unique_ptr<WriteJob>> Start(const dataset::OutputSpec& spec, SchemaPtr schema, int threads);
  /// Aborts the job unless it finished.
  ~WriteJob();
  WriteJob(const WriteJob&) = delete;
  WriteJob& operator=(const WriteJob&) = delete;

  /// The rows every batch has.
  const SchemaPtr& schema() const { return schema_; }

  /// Hands `batch` (schema()'s columns) to the run in zero-copy slices of at most kSliceRows rows,
  /// waiting while kQueueBatches slices wait for it: however large the caller's batch, the run's
  /// working memory (encoded records, partition indices) is bounded by one slice per worker.
  /// False once the run ended (it failed; Finish says why).
  bool Push(const std::shared_ptr<RecordBatch>& batch);

  /// Ends the input, waits for the run and returns what it wrote, committed; or its error, the
  /// output left as it was.
  Result<dataset::SinkStats> Finish();

  /// Stops the run with `reason` (its source fails with it) and waits for it: nothing of the job
  /// appears in the output. Idempotent; a no-op after Finish.
  void Abort(const Status& reason);

  /// Batches that may wait between the producer and the run.
  static constexpr size_t kQueueBatches = 4;
  /// Rows of the largest batch the run is handed (the CSV and JSON Lines readers' batch).
  static constexpr int64_t kSliceRows = 65536;

 private:
  explicit WriteJob(SchemaPtr schema) : schema_(std::move(schema)), queue_(kQueueBatches) {}
  /// Waits for the run's thread (once) and returns its result.
  Result<dataset::SinkStats> Join();

  SchemaPtr schema_;
  pipeline::BatchQueue queue_;
  StopSource stop_;
  std::thread run_;
  Result<dataset::SinkStats> result_ = Status::Internal("the write did not run");
  bool joined_ = false;
};

}  // namespace recflow::python
