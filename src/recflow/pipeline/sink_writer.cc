// SinkWriter: thread-local encoders and parallel compression for a DatasetSink.
#include "recflow/pipeline/sink_writer.h"

#include <oneapi/tbb/parallel_for.h>

namespace recflow::pipeline {

Status SinkWriter::Prepare(const RecordBatch& batch, dataset::SinkBatch* out) {
  std::unique_ptr<RecordEncoder>& encoder = encoders_.local();
  if (encoder == nullptr) {
    ASSIGN_OR_RETURN(encoder, sink_->NewEncoder());
  }
  return sink_->Prepare(encoder.get(), batch, out);
}

Status SinkWriter::Compress(dataset::SinkWork* work) const {
  std::vector<Status> statuses(work->jobs.size());
  tbb::parallel_for(size_t{0}, work->jobs.size(), [&](size_t i) { statuses[i] = sink_->CompressJob(&work->jobs[i]); });
  for (const Status& st : statuses) RETURN_NOT_OK(st);
  return Status::OK();
}

Status SinkWriter::Flush() {
  dataset::SinkWork rest;
  sink_->Flush(&rest);
  RETURN_NOT_OK(Compress(&rest));
  return sink_->Write(std::move(rest));
}

int64_t SinkWriter::NarrowedDoubles() {
  int64_t n = 0;
  for (auto& encoder : encoders_) {
    if (encoder) n += encoder->narrowed_doubles();
  }
  return n;
}

}  // namespace recflow::pipeline
