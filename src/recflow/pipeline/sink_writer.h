// SinkWriter: the per-thread encoders and parallel chunk compression a stage uses to feed one DatasetSink.
#pragma once

#include <memory>

#include <oneapi/tbb/enumerable_thread_specific.h>

#include "recflow/dataset/dataset_sink.h"

namespace recflow::pipeline {

/// Drives one DatasetSink from a stage: Prepare on any thread (each thread its own encoder),
/// Compress of every job of a SinkWork in parallel, Flush of the partial chunks at the end.
class SinkWriter {
 public:
  explicit SinkWriter(dataset::DatasetSink* sink) : sink_(sink) {}
  /// The sink (for the in-order Assign and Write).
  dataset::DatasetSink* sink() const { return sink_; }
  /// Groups and encodes `batch` with this thread's encoder. Thread-safe.
  Status Prepare(const RecordBatch& batch, dataset::SinkBatch* out);
  /// Compresses every job of `work`, the jobs themselves in parallel; the first failure in job order.
  Status Compress(dataset::SinkWork* work) const;
  /// After the last Assign: moves the partial chunks out, compresses and writes them (call
  /// inside the stage's arena).
  Status Flush();
  /// float64 values the encoders wrote as float32 with lost precision.
  int64_t NarrowedDoubles();

 private:
  dataset::DatasetSink* sink_;
  tbb::enumerable_thread_specific<std::unique_ptr<RecordEncoder>> encoders_;
};

}  // namespace recflow::pipeline
