// JetStream administration a NATS source and sink need: the stream and durable consumer made when missing, the
// consumer's state (pending and unacknowledged messages, the last delivered sequence, the ack floor, its AckWait).
#pragma once

#include <cstdint>

#include "recflow/connectors/nats/nats_connection.h"
#include "recflow/connectors/nats/nats_source.h"

namespace recflow::nats {

/// Checks that `stream` exists; creates it when missing and `create` (file storage, taking
/// `subject`, or `>` when it is empty); an existing one is used as it is. Errors name the server
/// and the stream.
Status EnsureStream(NatsConnection& connection, const std::string& stream, const std::string& subject, bool create);

/// Checks that `options`' stream and consumer exist; creates what is missing when
/// `options.create` (a file-stored stream on `options.subject`, or on `>` when it is empty; a
/// durable pull consumer with explicit acks, delivering everything, filtered on the subject, with
/// the options' AckWait and MaxAckPending and unlimited deliveries); an existing one is used as it
/// is. Errors name the server, the stream and the consumer.
Status EnsureConsumer(NatsConnection& connection, const NatsSourceOptions& options);

/// A consumer's state, from one $JS.API.CONSUMER.INFO reply (so its numbers agree with each other).
struct ConsumerState {
  int64_t pending = 0;               ///< messages not delivered yet
  int64_t ack_pending = 0;           ///< delivered and not acknowledged yet
  uint64_t delivered_sequence = 0;   ///< the stream sequence of the last message delivered (0: none yet)
  /// The stream sequence every message at or below which is acknowledged or not the consumer's
  /// (another subject of the stream): ack_floor.stream_seq.
  uint64_t ack_floor_sequence = 0;
  int64_t ack_wait_ms = 0;           ///< the consumer's AckWait (its own, which may differ from the options')
};

/// The state of `options`' consumer now; DataError when the reply lacks one of the numbers.
Result<ConsumerState> GetConsumerState(NatsConnection& connection, const NatsSourceOptions& options);

/// The sequence of the last message in `options`' stream now ($JS.API.STREAM.INFO state.last_seq).
Result<uint64_t> GetStreamLastSequence(NatsConnection& connection, const NatsSourceOptions& options);

}  // namespace recflow::nats
