// ConnectionServer: one stream per connection from a bounded pool of workers; admission, timeouts, refusals.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/serve/endpoint.h"

namespace recflow::serve {

/// How a ConnectionServer treats its clients.
struct ConnectionOptions {
  int max_clients = 64;        ///< streams sent at once (the worker threads)
  int max_waiting = 256;       ///< connections that may wait for a free worker; more are refused
  int wait_timeout_ms = 60000; ///< a connection that waited this long for a worker is refused
  int send_timeout_ms = 30000; ///< a client whose socket takes no byte for this long is dropped
  std::function<void(const std::string&)> log;  ///< one line per event (connect, pass, drop); may be empty

  /// 64 workers, 256 waiting for at most 60 s, 30 s send timeout, no log.
  static ConnectionOptions Defaults() { return {}; }
  /// Checks the counts and times.
  Status Validate() const;
};

/// Counters of a running server.
struct ServeStats {
  std::atomic<int64_t> connections{0};  ///< accepted
  std::atomic<int64_t> passes{0};       ///< streams sent whole
  std::atomic<int64_t> dropped{0};      ///< streams ended early (the client left or stalled, or an error)
  std::atomic<int64_t> refused{0};      ///< connections sent a refusal (no free worker in time, or stopping)
  std::atomic<int64_t> bytes{0};        ///< bytes of whole and dropped streams
};

/// Writes one whole stream to `out` (the work of one connection).
using StreamFunction = std::function<Status(OutputStream* out)>;

/// Accepts connections on a tcp or unix endpoint and sends each one stream written by a
/// StreamFunction, on at most `max_clients` worker threads (started as needed and reused).
///
/// Admission: a connection that finds every worker busy waits, in order of arrival, for up to
/// `wait_timeout_ms`; when `max_waiting` connections wait already, when its wait times out, or
/// when the server stops, it is sent a refusal (refusal.h: an IPC stream whose schema metadata
/// says why) instead of being closed unread. A client whose socket takes no byte for
/// `send_timeout_ms` is dropped then (a reset frees its buffers), so stalled clients hold
/// workers for a bounded time and waiting clients get them. A stream sent whole ends with
/// FIN and a lingering close (lingering_close.h): the client reads EOF right after the last
/// byte and never a reset. The server never reads from clients: what they send is discarded.
/// Memory goes back to the system when clients leave: each time the streams running fall to
/// half of their peak since the last time (and so when the server becomes idle), free heap
/// memory is trimmed (malloc_trim).
class ConnectionServer {
 public:
  /// Binds `endpoint` (tcp or unix) and starts accepting on a background thread.
  static Result<std::unique_ptr<ConnectionServer>> Start(const Endpoint& endpoint, ConnectionOptions options,
                                                         StreamFunction stream);
  /// Stops as Stop() does.
  ~ConnectionServer();
  ConnectionServer(const ConnectionServer&) = delete;
  ConnectionServer& operator=(const ConnectionServer&) = delete;

  /// The bound endpoint (with the port the system chose when asked for port 0).
  const Endpoint& endpoint() const;
  /// Live counters.
  const ServeStats& stats() const;
  /// Stops accepting, refuses the waiting connections, aborts running streams and joins every
  /// thread; idempotent.
  void Stop();

 private:
  struct Impl;
  explicit ConnectionServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace recflow::serve
