// ReadIntoStream: a source's batches, decoded by one stage of the stage executor, as the run of a C Data stream —
// the stream a Python user iterates over files.
#pragma once

#include <memory>

#include "recflow/formats/c_stream_run.h"
#include "recflow/formats/source.h"
#include "recflow/pipeline/stage_executor.h"

namespace recflow::pipeline {

/// A StreamRun (for ExportRunStream) that reads every unit of `source` with RunStage on the
/// context's threads and hands each decoded batch, in input order, to the stream's sink; its
/// status is the stage's (Cancelled when the stream was released early). The stream's schema
/// must be `source->schema()`. `source` is kept until the run is destroyed; `options` as
/// RunStage takes them (its progress counters, if any, must outlive the run).
StreamRun ReadIntoStream(std::shared_ptr<Source> source, StageOptions options = StageOptions());

}  // namespace recflow::pipeline
