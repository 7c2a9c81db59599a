// NatsConnection: one connection to a NATS server (nats.c), its errors as Status, and JetStream API requests.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "recflow/core/result.h"

struct __natsConnection;
struct __natsSubscription;

namespace recflow::nats {

/// A connection to the server at a `nats://host:port` URL that reconnects on its own (forever,
/// every 250 ms); messages published while it is away are buffered by nats.c.
class NatsConnection {
 public:
  /// Connects to `url`; IOError naming the URL when no server answers.
  static Result<std::unique_ptr<NatsConnection>> Connect(const std::string& url);
  ~NatsConnection();
  NatsConnection(const NatsConnection&) = delete;
  NatsConnection& operator=(const NatsConnection&) = delete;

  /// The nats.c connection (owned).
  __natsConnection* get() const { return connection_; }
  /// The URL it was made with, for messages.
  const std::string& url() const { return url_; }
  /// How many times the connection was lost and made again so far (a reconnect ends every pull
  /// the server had waiting: they must be issued again).
  int64_t reconnects() const { return reconnects_.load(std::memory_order_acquire); }

  /// Publishes `data` on `subject` (with reply subject `reply` when not null). Subjects are C
  /// strings: a source publishes an acknowledgement per message from subjects it keeps as such.
  Status Publish(const char* subject, std::string_view data, const char* reply = nullptr);
  /// Sends `data` as a request on `subject` and returns the reply's payload; IOError naming the
  /// subject after `timeout_ms` without one, or when no one listens (a JetStream API or stream missing).
  Result<std::string> Request(const std::string& subject, std::string_view data, int64_t timeout_ms);
  /// Waits up to `timeout_ms` until the server has processed everything published so far.
  Status Flush(int64_t timeout_ms);

  /// An owned synchronous subscription (read with natsSubscription_NextMsg).
  using Subscription = std::unique_ptr<__natsSubscription, void (*)(__natsSubscription*)>;
  /// A new unique inbox subject.
  Result<std::string> NewInbox() const;
  /// A synchronous subscription to `subject`, without nats.c's limits on pending messages (the
  /// caller bounds what it asks for: one pull's messages, one batch's acknowledgements).
  Result<Subscription> SubscribeSync(const std::string& subject);

  /// Use Connect().
  explicit NatsConnection(std::string url) : url_(std::move(url)) {}

 private:
  static void OnReconnected(__natsConnection* connection, void* self);

  __natsConnection* connection_ = nullptr;
  std::string url_;
  std::atomic<int64_t> reconnects_{0};  // counted on nats.c's thread
};

/// IOError "WHAT: <nats.c's text for `status`> (<its last error>)" for a nats.c status that is not
/// NATS_OK (an int so callers need not include nats.h); OK otherwise.
Status NatsStatus(int status, std::string_view what);

/// A JetStream API reply's error ({"error": {"code": 404, "err_code": 10059, "description": ...}})
/// as a status naming `what`, OK when the reply is not an error; `err_code` receives the API's
/// error code (0 when none). DataError when the reply is not JSON.
Status JetStreamApiError(std::string_view reply, std::string_view what, int64_t* err_code = nullptr);

}  // namespace recflow::nats
