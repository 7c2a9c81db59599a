// MakeFilesPass: `recflow serve FILES...` as a pipeline — read → select (--columns) → standard_scale (--transform,
// fitted once) — served by a PipelinePass.
#pragma once

#include <memory>

#include "recflow/core/exec_context.h"
#include "recflow/serve/pipeline_pass.h"
#include "recflow/serve/serve_options.h"

namespace recflow::serve {

/// The pass every connection of `recflow serve FILES...` gets, as the pipeline
///   read (the inputs) → select (options.columns, when given: ops::Projection)
///   → standard_scale (options.standard_scale, when given)
/// streamed to an IpcStreamSink within options.client_memory_bytes. Validates the options and
/// builds the pipeline once (so a missing input or column fails here, not in every pass). The
/// scaled columns' moments are fitted once, here, by running the pipeline up to the
/// standard_scale step's fit (population mean and standard deviation, nulls skipped): every
/// pass applies those, as a Create side input, rather than fitting again. InvalidArgument for
/// a missing or non-numeric scaled column. Runs (the fit's and each pass's) execute with
/// `context`'s threads and file system.
Result<std::shared_ptr<const PipelinePass>> MakeFilesPass(const ServeOptions& options, const ExecContext& context);

}  // namespace recflow::serve
