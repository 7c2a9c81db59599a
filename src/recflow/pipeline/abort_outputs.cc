// AbortOutputs: abort each sink; for a cancelled job, one note per output on what was removed.
#include "recflow/pipeline/abort_outputs.h"

#include "recflow/dataset/staging_registry.h"

namespace recflow::pipeline {

Status AbortOutputs(Status failure, const std::vector<dataset::DatasetSink*>& sinks) {
  for (dataset::DatasetSink* sink : sinks) {
    const Status aborted = sink->Abort();
    if (failure.code() != StatusCode::kCancelled) continue;
    failure = failure.WithNote(aborted.ok() ? "; " + dataset::RemovedOutputNote(sink->output())
                                            : "; could not remove the unfinished output of '" + sink->output() +
                                                  "': " + aborted.ToString());
  }
  return failure;
}

}  // namespace recflow::pipeline
