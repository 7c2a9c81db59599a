// `recflow serve`: the inputs, or a pipeline's output, as Arrow IPC streams to trainers, one full pass per connection.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/cli/source_flags.h"
#include "recflow/core/status.h"
#include "recflow/formats/arrow_ipc/ipc_stream_sink.h"
#include "recflow/serve/serve_options.h"

namespace recflow::cli {

/// Raw values of `recflow serve`'s flags.
struct ServeFlags {
  std::vector<std::string> inputs;  ///< input files, or one pipeline file (.yaml, .yml)
  std::string output;               ///< a pipeline's step to serve (empty: its one unread step)
  std::vector<std::string> set;     ///< a pipeline's KEY=VALUE parameter overrides
  int threads = 0;                  ///< a pipeline run's worker threads (0: all cores)
  std::string listen;
  int64_t batch_size = arrow_ipc::kDefaultStreamBatchRows;
  std::string batch_mode = "keep_remainder";
  std::vector<std::string> columns;
  std::vector<std::string> transforms;
  std::string compression = "none";
  int max_clients = 64;
  int max_waiting = 256;
  int wait_timeout_ms = 60000;
  int send_timeout_ms = 30000;
  int64_t client_memory_mb = 64;
  std::string record_type = "example";
  SourceFlags source;
};

/// Serves one pass of the input files — or one run of the pipeline file, streaming its chosen
/// step — per connection until SIGINT or SIGTERM (tcp and unix endpoints; each event logged on stderr), then
/// stops the server and returns OK (a second signal while it stops ends the process at once, see
/// HandleTerminationSignals); or writes one pass to the descriptor of an fd:// or `-` endpoint
/// and returns.
Status RunServe(const ServeFlags& flags);

}  // namespace recflow::cli
