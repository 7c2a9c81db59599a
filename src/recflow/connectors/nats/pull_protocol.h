// The JetStream pull protocol as recflow speaks it: the MSG.NEXT request body, the ack reply subject's metadata, and the
// status messages (100, 404, 408, 409) a pull's inbox receives.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "recflow/core/result.h"

namespace recflow::nats {

// recflow issues pulls itself, as requests on $JS.API.CONSUMER.MSG.NEXT.<stream>.<consumer> over a
// plain subscription to its own inbox, and never calls nats.c 3.4's natsSubscription_Fetch: it can
// ignore its timeout (fixed in 3.6.1) and has a heap buffer overflow in its fetch loop (fixed in 3.9.0).

/// The subject a pull request for `consumer` of `stream` is published on.
std::string PullSubject(const std::string& stream, const std::string& consumer);

/// The JSON body of one pull: up to `batch` messages, the request expiring after `expires_ms`
/// with an idle heartbeat every `heartbeat_ms` (0: none) while it waits.
std::string PullRequestBody(int64_t batch, int64_t expires_ms, int64_t heartbeat_ms);

/// What the server put in a JetStream message's reply (ack) subject,
/// `$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<ns>.<pending>` or the
/// form with a domain and account hash before the stream (and a token after pending). The stream
/// and consumer are views into the parsed subject.
struct MessageMetadata {
  std::string_view stream;
  std::string_view consumer;
  int64_t delivered = 0;          ///< times this message was delivered (1 the first time)
  uint64_t stream_sequence = 0;
  uint64_t consumer_sequence = 0;
  int64_t published_ns = 0;       ///< when the stream stored it, epoch nanoseconds
  uint64_t pending = 0;           ///< messages left for the consumer after this one
};

/// The metadata of the ack subject `reply` (its stream and consumer point into `reply`); DataError
/// naming it when it is not one. Allocates nothing when it is one.
Result<MessageMetadata> ParseAckSubject(std::string_view reply);

/// What a message without an ack subject on a pull's inbox says.
enum class PullStatus {
  kHeartbeat,   ///< 100: an idle heartbeat (or flow control) while the pull waits
  kNoMessages,  ///< 404: nothing to deliver (the pull ends)
  kExpired,     ///< 408: the pull expired (the pull ends)
  kConflict,    ///< 409 that a new pull may get past: too many pulls waiting, a message over max_bytes, a
                ///< leader change, the server shutting down
};

/// The status of a message whose `Status` header is `status` (its `Description` header
/// `description`, for messages). IOError naming both for a 409 no new pull gets past (the
/// consumer deleted or push-based, a pull over the consumer's max_request_batch, _expires or
/// _max_bytes: every pull would be refused); DataError for a status the pull protocol does not send.
Result<PullStatus> ParsePullStatus(std::string_view status, std::string_view description);

}  // namespace recflow::nats
