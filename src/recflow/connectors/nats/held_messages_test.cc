// Tests of the held messages: holding, a delivery again replacing the subject, growth past many messages, TakeIf.
#include "recflow/connectors/nats/held_messages.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace recflow::nats {
namespace {

std::string Subject(uint64_t sequence, int delivered) {
  return "$JS.ACK.S.C." + std::to_string(delivered) + "." + std::to_string(sequence) + ".7.1700000000000000000.0";
}

std::map<uint64_t, std::string> Contents(const HeldMessages& held) {
  std::map<uint64_t, std::string> out;
  held.ForEach([&](uint64_t sequence, const char* subject) { EXPECT_TRUE(out.emplace(sequence, subject).second); });
  return out;
}

TEST(HeldMessagesTest, HoldsEachSequenceOnceWithItsLatestSubject) {
  HeldMessages held;
  EXPECT_TRUE(held.empty());
  EXPECT_FALSE(held.Contains(5));
  EXPECT_TRUE(held.Hold(5, Subject(5, 1)));
  EXPECT_TRUE(held.Hold(9, Subject(9, 1)));
  EXPECT_FALSE(held.Hold(5, Subject(5, 2)));  // delivered again
  EXPECT_EQ(held.size(), 2u);
  EXPECT_TRUE(held.Contains(5));
  EXPECT_FALSE(held.Contains(6));
  EXPECT_EQ(Contents(held), (std::map<uint64_t, std::string>{{5, Subject(5, 2)}, {9, Subject(9, 1)}}));
}

TEST(HeldMessagesTest, VisitsInTheOrderHeldOneHeldAgainWhereItWasHeldLast) {
  HeldMessages held;
  for (uint64_t sequence : {uint64_t{40}, uint64_t{3}, uint64_t{1} << 30, uint64_t{17}})
    held.Hold(sequence, Subject(sequence, 1));
  held.Hold(3, Subject(3, 2));
  std::vector<std::pair<uint64_t, std::string>> visited;
  held.ForEach([&](uint64_t sequence, const char* subject) { visited.emplace_back(sequence, subject); });
  EXPECT_EQ(visited,
            (std::vector<std::pair<uint64_t, std::string>>{
                {40, Subject(40, 1)}, {1u << 30, Subject(1u << 30, 1)}, {17, Subject(17, 1)}, {3, Subject(3, 2)}}));
}

TEST(HeldMessagesTest, GrowsPastManyMessagesInAnyOrder) {
  // Sequences in a scattered order (an earlier run's redeliveries come so), some hashing close together.
  HeldMessages held;
  std::map<uint64_t, std::string> expected;
  for (uint64_t k = 0; k < 50000; ++k) {
    const uint64_t sequence = (k * 7919) % 50000 + 1 + (k % 3 == 0 ? (uint64_t{1} << 40) : 0);
    ASSERT_TRUE(held.Hold(sequence, Subject(sequence, 1)));
    expected[sequence] = Subject(sequence, 1);
  }
  for (auto& [sequence, subject] : expected) {  // every 7th delivered again
    if (sequence % 7 != 0) continue;
    EXPECT_FALSE(held.Hold(sequence, Subject(sequence, 3)));
    subject = Subject(sequence, 3);
  }
  EXPECT_EQ(held.size(), expected.size());
  EXPECT_EQ(Contents(held), expected);
  EXPECT_FALSE(held.Contains(50001));
}

TEST(HeldMessagesTest, TakeIfMovesTheChosenOnesOut) {
  HeldMessages held;
  for (uint64_t sequence = 1; sequence <= 3000; ++sequence) held.Hold(sequence, Subject(sequence, 1));
  held.Hold(2000, Subject(2000, 2));
  HeldMessages taken = held.TakeIf([](uint64_t sequence) { return sequence <= 2000; });
  EXPECT_EQ(taken.size(), 2000u);
  EXPECT_EQ(held.size(), 1000u);
  EXPECT_TRUE(taken.Contains(1));
  EXPECT_TRUE(taken.Contains(2000));
  EXPECT_FALSE(taken.Contains(2001));
  EXPECT_FALSE(held.Contains(2000));
  EXPECT_TRUE(held.Contains(3000));
  EXPECT_EQ(Contents(taken)[2000], Subject(2000, 2));
  EXPECT_EQ(Contents(held)[2500], Subject(2500, 1));
  EXPECT_TRUE(held.Hold(1, Subject(1, 4)));  // the rest still takes new ones
  EXPECT_EQ(held.size(), 1001u);
}

}  // namespace
}  // namespace recflow::nats
