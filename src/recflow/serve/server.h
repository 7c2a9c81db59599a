// Server: `recflow serve` — one full pass of the inputs as one Arrow IPC stream per client connection.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/pipeline/input_source.h"
#include "recflow/serve/endpoint.h"
#include "recflow/serve/rebatcher.h"

namespace recflow::serve {

/// What a server serves and how.
struct ServeOptions {
  std::vector<std::string> inputs;         ///< anything OpenInputs reads
  pipeline::InputOptions input_options;    ///< formats, CSV dialect, schema
  int64_t batch_size = 1024;               ///< rows per batch (not with kAuto)
  BatchMode batch_mode = BatchMode::kKeepRemainder;
  std::vector<std::string> columns;        ///< columns to serve, in order; empty = all
  std::vector<std::string> standard_scale; ///< numeric columns standardized (fitted over a first pass)
  arrow_ipc::IpcWriteOptions ipc;          ///< body compression of the served stream
  int max_clients = 64;                    ///< concurrent passes; more connections are closed at once
  int send_timeout_ms = 30000;             ///< a client that reads nothing for this long is dropped
  std::function<void(const std::string&)> log;  ///< one line per event (connect, pass, drop); may be empty

  /// Batches of 1024 rows, keep_remainder, all columns, uncompressed, 64 clients, 30 s timeout.
  static ServeOptions Defaults() { return {}; }
  /// Checks sizes and the batch size against the mode.
  Status Validate() const;
};

/// Counters of a running server.
struct ServeStats {
  std::atomic<int64_t> connections{0};  ///< accepted
  std::atomic<int64_t> passes{0};       ///< completed full passes
  std::atomic<int64_t> dropped{0};      ///< connections ended early (error, timeout, refusal)
  std::atomic<int64_t> bytes{0};        ///< bytes sent in completed and dropped passes
};

/// Serves the inputs on a socket: every accepted connection receives one full pass as one IPC
/// stream (schema, batches, end-of-stream) and is closed; connections are served concurrently,
/// each on its own thread reading the inputs anew, so a slow client slows only itself and each
/// holds about one decoded unit and one batch in memory. The server never reads from clients:
/// whatever they send is ignored; one that disconnects or stops reading is dropped and logged.
class Server {
 public:
  /// Opens the inputs once (their schema; fits the scaler), binds `endpoint` (tcp or unix) and
  /// starts accepting on a background thread.
  static Result<std::unique_ptr<Server>> Start(const Endpoint& endpoint, ServeOptions options);
  /// Stops accepting, aborts running passes and joins their threads.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// The bound endpoint (with the port the system chose when asked for port 0).
  const Endpoint& endpoint() const;
  /// Live counters.
  const ServeStats& stats() const;
  /// Stops the server (as the destructor does); idempotent.
  void Stop();

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Writes one full pass of the inputs as one IPC stream to `out` (the work of one connection;
/// also `recflow serve --listen -` on stdout). Fits the scaler first when asked.
Status ServeOnePass(const ServeOptions& options, OutputStream* out);

}  // namespace recflow::serve
