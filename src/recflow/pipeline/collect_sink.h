// CollectSink: a Sink that keeps every batch it consumes, in input order — a side input held in memory.
#pragma once

#include <memory>
#include <vector>

#include "recflow/formats/sink.h"

namespace recflow::pipeline {

/// Keeps the batches of a PCollection other steps read whole (a materialized side input).
class CollectSink final : public Sink {
 public:
  /// Holds `batch` until Merge.
  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState* local,
                                                const std::shared_ptr<RecordBatch>& batch) const override;
  /// Appends the batch to those kept.
  Status Merge(SinkPartial* partial) override;
  /// The batches consumed, in input order; the sink is empty afterwards.
  std::vector<std::shared_ptr<RecordBatch>> TakeBatches() { return std::move(batches_); }

 private:
  std::vector<std::shared_ptr<RecordBatch>> batches_;
};

}  // namespace recflow::pipeline
