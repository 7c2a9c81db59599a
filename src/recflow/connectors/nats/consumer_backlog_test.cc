// Tests of ConsumerBacklog: an earlier run's messages and undelivered ones counted down by stream sequence, repeats and
// later messages not counted, a resync only lowering what is owed.
#include "recflow/connectors/nats/consumer_backlog.h"

#include <gtest/gtest.h>

namespace recflow::nats {
namespace {

ConsumerState State(int64_t pending, int64_t ack_pending, uint64_t delivered) {
  ConsumerState s;
  s.pending = pending;
  s.ack_pending = ack_pending;
  s.delivered_sequence = delivered;
  s.ack_wait_ms = 1000;
  return s;
}

TEST(ConsumerBacklogTest, ANewConsumerIsCaughtUpAfterItsPendingMessages) {
  ConsumerBacklog backlog(State(3, 0, 0), 3);
  EXPECT_EQ(backlog.earlier_owed(), 0);
  backlog.Received(1);
  backlog.Received(2);
  EXPECT_FALSE(backlog.caught_up());
  backlog.Received(3);
  EXPECT_TRUE(backlog.caught_up());
  backlog.Received(4);  // published after the start
  EXPECT_TRUE(backlog.caught_up());
}

TEST(ConsumerBacklogTest, AnEarlierRunsMessagesAreOwedUntilTheyAllCameAgainInAnyOrder) {
  // A killed run received 1..10 and acknowledged none; 11..20 were never delivered.
  ConsumerBacklog backlog(State(10, 10, 10), 20);
  for (uint64_t seq = 11; seq <= 20; ++seq) backlog.Received(seq);
  EXPECT_FALSE(backlog.caught_up());
  EXPECT_EQ(backlog.earlier_owed(), 10);
  for (uint64_t seq : {7, 3, 10, 1, 2, 4, 5, 6, 8}) backlog.Received(seq);
  EXPECT_EQ(backlog.earlier_owed(), 1);
  EXPECT_FALSE(backlog.caught_up());
  backlog.Received(9);
  EXPECT_EQ(backlog.earlier_owed(), 0);
  EXPECT_TRUE(backlog.caught_up());
}

TEST(ConsumerBacklogTest, NewMessagesDoNotStandInForTheEarlierRunsOnes) {
  ConsumerBacklog backlog(State(0, 2, 5), 5);
  for (uint64_t seq = 6; seq <= 100; ++seq) backlog.Received(seq);
  EXPECT_EQ(backlog.earlier_owed(), 2);
  EXPECT_FALSE(backlog.caught_up());
}

TEST(ConsumerBacklogTest, AResyncForgetsMessagesRemovedBeforeDeliveryAndNeverRaisesWhatIsOwed) {
  ConsumerBacklog backlog(State(5, 3, 10), 15);
  backlog.Received(11);
  backlog.Received(4);
  // A pull found nothing: the stream dropped 12..15 (its limits) and one of the earlier run's messages; the run holds 2.
  backlog.Resync(State(0, 3, 11), 2);
  EXPECT_EQ(backlog.earlier_owed(), 1);
  EXPECT_FALSE(backlog.caught_up());
  backlog.Received(8);
  EXPECT_TRUE(backlog.caught_up());
  // Messages published since (pending again) are not owed.
  backlog.Resync(State(50, 40, 60), 3);
  EXPECT_TRUE(backlog.caught_up());
}

TEST(ConsumerBacklogTest, AMessageTheServerCountsTwiceIsOwedOnce) {
  // nats-server 2.9 after a delivery to a departed client's pull: message 40 unacknowledged and pending at once.
  ConsumerBacklog backlog(State(1, 40, 39), 40);
  for (uint64_t seq = 1; seq <= 40; ++seq) backlog.Received(seq);
  EXPECT_EQ(backlog.earlier_owed(), 1);  // counted as an earlier run's, received as a new one
  backlog.Resync(State(0, 40, 40), 40);
  EXPECT_TRUE(backlog.caught_up());
  // Pending over-counted: the message at the stream's last sequence at the start arrived, so nothing is left before it.
  ConsumerBacklog pending(State(3, 0, 10), 12);
  pending.Received(11);
  EXPECT_FALSE(pending.caught_up());
  pending.Received(12);
  EXPECT_TRUE(pending.caught_up());
}

}  // namespace
}  // namespace recflow::nats
