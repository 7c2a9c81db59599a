// ConnectionServer: one stream per connection from a bounded pool of workers; admission, timeouts, refusals.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

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
  /// One line per event (connect, pass, drop); may be empty. Called on a thread of its own
  /// through a bounded queue (log_queue.h): a callback that blocks delays only the log (lines
  /// beyond the queue are dropped and counted), never a client nor Stop().
  std::function<void(const std::string&)> log;
  /// Starts a worker thread running its argument; empty: std::thread. A seam for tests: a
  /// worker that cannot start (std::system_error) refuses the connection that needed it.
  std::function<std::thread(std::function<void()>)> start_thread;

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
/// An exception from a stream (std::bad_alloc from an allocation outside the checked paths)
/// drops that client with an OutOfMemory or Internal status, logged; the server goes on.
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
  /// thread but the log's (which the destructor joins: it waits for the log callback to
  /// return); idempotent.
  void Stop();

 private:
  struct Impl;
  explicit ConnectionServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace recflow::serve
