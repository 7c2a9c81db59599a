// ExportRunStream: a producing run (a stage, a whole pipeline) on a thread of its own, feeding a CStreamSink, seen by
// the consumer as an Arrow C stream (ArrowArrayStream) whose get_next pops the sink's queue.
#pragma once

#include <functional>

#include "recflow/columnar/c_data_abi.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/exec_context.h"
#include "recflow/core/status.h"
#include "recflow/core/stop_token.h"
#include "recflow/formats/c_stream_sink.h"
#include "recflow/formats/sink.h"

namespace recflow {

/// A run that produces a stream: feeds `sink` (as one of a stage's or a pipeline's sinks) under
/// `context` and returns how it ended. It checks `context.stop_token` as every job does; it
/// finishes, commits or aborts its other outputs itself, and may leave `sink` alone (the stream
/// ends when the run returns). Runs on the stream's own thread.
using StreamRun = std::function<Status(const ExecContext& context, Sink* sink)>;

/// Starts `run` on a new thread, feeding a CStreamSink of `schema` bounded by `options`, under
/// `context` with its stop token replaced by the stream's own, and fills `out` with an Arrow C
/// stream over that sink (the ArrowArrayStream of c_data::ExportBatchStream):
///  - get_schema gives `schema`; get_next gives the emitted batches in order, waiting for the
///    next one (back-pressure: the run's Emit waits while the queue is full; at most
///    options.max_batches batches and options.max_bytes bytes wait between the run and the
///    consumer, besides the run's own units in flight and what the consumer holds); after the
///    last batch, the end once `run` returned OK, or EIO with its error's full text
///    (get_last_error) once it failed — queued batches are then dropped, as the sink is aborted.
///  - release while the run is going (a consumer breaking out of its loop) requests a stop on the
///    run's token, makes a waiting Emit return Cancelled, and joins the thread: the run returns
///    Cancelled and aborts its outputs; release returns when it has. A run past its point of no
///    return finishes instead. Batches the consumer took stay valid after release.
/// `stop` is the stream's stop source (its token replaces the context's): a caller keeping a copy
/// may stop the run itself while the consumer waits in get_next (a Python read on Ctrl-C), which
/// then ends the stream with the run's Cancelled.
/// InvalidArgument (and `out` untouched) for a bad context, options, schema or run.
Status ExportRunStream(const ExecContext& context, SchemaPtr schema, StreamRun run, CStreamOptions options,
                       ArrowArrayStream* out, StopSource stop = StopSource());

}  // namespace recflow
