// StreamRuns of the engine for a C Data stream (what a Python user iterates): a source's batches decoded by one stage
// (ReadIntoStream), or the rows of one step of a whole pipeline (OutputIntoStream).
#pragma once

#include <memory>

#include "recflow/formats/c_stream_run.h"
#include "recflow/formats/source.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/stage_executor.h"

namespace recflow::pipeline {

/// A StreamRun (for ExportRunStream) that reads every unit of `source` with RunStage on the
/// context's threads and hands each decoded batch, in input order, to the stream's sink; its
/// status is the stage's (Cancelled when the stream was released early). The stream's schema
/// must be `source->schema()`. `source` is kept until the run is destroyed; `options` as
/// RunStage takes them (its progress counters, if any, must outlive the run).
StreamRun ReadIntoStream(std::shared_ptr<Source> source, StageOptions options = StageOptions());

/// A StreamRun that runs `pipeline` with RunPipeline on the context's threads, the rows of step
/// `step` going to the stream's sink (RunOptions::outputs; any output `options` already names
/// is kept): the stream gets them in input order, and the pipeline's other outputs (writes,
/// side files) are committed when the run succeeds and aborted when it fails or the stream is
/// released early. The stream's schema must be the step's (`pipeline->node(id).schema`).
/// `pipeline` is kept until the run is destroyed.
StreamRun OutputIntoStream(std::shared_ptr<const Pipeline> pipeline, std::string step,
                           RunOptions options = RunOptions::Defaults());

}  // namespace recflow::pipeline
