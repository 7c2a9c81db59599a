// ConsumerBacklog: counting down the start's backlog per message received, lowered when the server says less is left.
#include "recflow/connectors/nats/consumer_backlog.h"

#include <algorithm>

namespace recflow::nats {

void ConsumerBacklog::Received(uint64_t stream_sequence) {
  received_last_ = std::max(received_last_, stream_sequence);
  int64_t& owed = stream_sequence <= last_delivered_ ? earlier_ : undelivered_;
  if (owed > 0) --owed;
}

void ConsumerBacklog::Resync(const ConsumerState& now, int64_t held) {
  // Every unacknowledged message is either held by this run or an earlier run's still to come.
  earlier_ = std::clamp<int64_t>(now.ack_pending - held, 0, earlier_);
  undelivered_ = std::clamp<int64_t>(now.pending, 0, undelivered_);
}

}  // namespace recflow::nats
