// JetStream administration a NATS source needs: the stream and durable consumer made when missing, the consumer's
// counts of pending and unacknowledged messages.
#pragma once

#include <cstdint>

#include "recflow/connectors/nats/nats_connection.h"
#include "recflow/connectors/nats/nats_source.h"

namespace recflow::nats {

/// Checks that `options`' stream and consumer exist; creates what is missing when
/// `options.create` (a file-stored stream on `options.subject`, or on `>` when it is empty; a
/// durable pull consumer with explicit acks, delivering everything, filtered on the subject, with
/// the options' AckWait and MaxAckPending and unlimited deliveries); an existing one is used as it
/// is. Errors name the server, the stream and the consumer.
Status EnsureConsumer(NatsConnection& connection, const NatsSourceOptions& options);

/// A consumer's backlog.
struct ConsumerCounts {
  int64_t pending = 0;      ///< messages not delivered yet
  int64_t ack_pending = 0;  ///< delivered and not acknowledged yet
};

/// The counts of `options`' consumer now ($JS.API.CONSUMER.INFO).
Result<ConsumerCounts> GetConsumerCounts(NatsConnection& connection, const NatsSourceOptions& options);

}  // namespace recflow::nats
