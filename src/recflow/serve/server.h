// Server: `recflow serve` — one full pass of the inputs, or one run of a pipeline, as one Arrow IPC stream per
// client connection.
#pragma once

#include <memory>

#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/serve/connection_server.h"
#include "recflow/serve/endpoint.h"
#include "recflow/serve/serve_options.h"

namespace recflow::serve {

/// Serves the inputs on a socket: every accepted connection receives one full pass as one IPC
/// stream (schema, batches, end-of-stream) and is closed. Passes run concurrently on a bounded
/// pool of workers, each reading the inputs anew within `client_memory_bytes`, so a slow
/// client slows only itself; clients are admitted, kept waiting, refused, timed out and closed
/// as ConnectionServer describes.
class Server {
 public:
  /// Builds the inputs' pass once (MakeFilesPass: opens the inputs, fits the scaled columns),
  /// binds `endpoint` (tcp or unix) and starts accepting on a background thread.
  static Result<std::unique_ptr<Server>> Start(const Endpoint& endpoint, ServeOptions options);
  /// Binds `endpoint` (tcp or unix) and sends every accepted connection what `stream` writes
  /// (a PipelinePass's Stream), treating clients as `connections` say.
  static Result<std::unique_ptr<Server>> Start(const Endpoint& endpoint, const ConnectionOptions& connections,
                                               StreamFunction stream);

  /// The bound endpoint (with the port the system chose when asked for port 0).
  const Endpoint& endpoint() const { return connections_->endpoint(); }
  /// Live counters.
  const ServeStats& stats() const { return connections_->stats(); }
  /// Stops the server (as the destructor does); idempotent.
  void Stop() { connections_->Stop(); }

 private:
  explicit Server(std::unique_ptr<ConnectionServer> connections) : connections_(std::move(connections)) {}
  std::unique_ptr<ConnectionServer> connections_;
};

/// Writes one full pass of the inputs as one IPC stream to `out` (the work of one connection;
/// also `recflow serve --listen -` on stdout). Fits the scaler first when asked.
Status ServeOnePass(const ServeOptions& options, OutputStream* out);

}  // namespace recflow::serve
