// ConsumerBacklog: what a run owes its consumer before it is caught up, counted by stream sequence from the consumer's
// state at the start.
#pragma once

#include <cstdint>

#include "recflow/connectors/nats/jetstream_admin.h"

namespace recflow::nats {

/// The messages a run must receive to have caught up with its consumer as it was when the run
/// connected: those an earlier run left unacknowledged (all at or below the last delivered stream
/// sequence; the server delivers them again, in no particular order) and those not delivered yet
/// (above it, delivered in stream order, up to the stream's last sequence then). Both are
/// counted from one CONSUMER.INFO reply, so a message published after the start is never waited
/// for, and redeliveries of messages the run already holds never count. The messages not
/// delivered yet are also all received once a message at or past the stream's last sequence at
/// the start arrived (nats-server 2.9 can count a message both as unacknowledged and as pending:
/// one it delivered to a pull whose client had gone).
class ConsumerBacklog {
 public:
  /// The backlog of a consumer in state `start`, its stream's last sequence `stream_last` read after it.
  ConsumerBacklog(const ConsumerState& start, uint64_t stream_last)
      : last_delivered_(start.delivered_sequence),
        stream_last_(stream_last),
        earlier_(start.ack_pending),
        undelivered_(start.pending) {}

  /// A message delivered to this run for the first time (not again while the run holds it).
  void Received(uint64_t stream_sequence);

  /// The consumer's state `now`, read when a pull brought the run nothing new, while it holds
  /// `held` messages: messages removed from the stream before they were delivered (its limits, a
  /// purge) or counted twice by the server are no longer owed. Only lowers what is owed.
  void Resync(const ConsumerState& now, int64_t held);

  /// Messages an earlier run left unacknowledged that this run has not received yet.
  int64_t earlier_owed() const { return earlier_; }
  /// Messages of the start's backlog not received yet (an upper bound: see caught_up).
  int64_t owed() const { return earlier_ + undelivered_; }
  /// True once every message of the start's backlog was received.
  bool caught_up() const { return earlier_ == 0 && (undelivered_ == 0 || received_last_ >= stream_last_); }

 private:
  uint64_t last_delivered_;
  uint64_t stream_last_;
  uint64_t received_last_ = 0;  // the largest stream sequence received
  int64_t earlier_;
  int64_t undelivered_;
};

}  // namespace recflow::nats
