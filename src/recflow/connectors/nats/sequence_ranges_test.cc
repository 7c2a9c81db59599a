// Tests of SequenceRanges: merging added sequences into ranges, membership, and the checkpoint entries' round trip.
#include "recflow/connectors/nats/sequence_ranges.h"

#include <gtest/gtest.h>

namespace recflow::nats {
namespace {

using Entries = std::vector<std::string>;

TEST(SequenceRangesTest, AddedSequencesMergeIntoRanges) {
  SequenceRanges set;
  EXPECT_TRUE(set.empty());
  for (uint64_t s : {5, 3, 4, 9, 1, 10, 8}) set.Add(s);
  EXPECT_EQ(set.ToEntries(), (Entries{"1-1", "3-5", "8-10"}));
  set.Add(2);  // joins the ranges on both sides
  set.Add(4);  // already in
  EXPECT_EQ(set.ToEntries(), (Entries{"1-5", "8-10"}));
  set.Add(7);
  set.Add(6);
  EXPECT_EQ(set.ToEntries(), (Entries{"1-10"}));
  EXPECT_EQ(set.last(), 10u);
}

TEST(SequenceRangesTest, CoverThroughMergesTheRangesBelowIntoOne) {
  SequenceRanges set;
  set.CoverThrough(0);  // nothing
  EXPECT_TRUE(set.empty());
  for (uint64_t s : {3, 5, 7, 9, 12, 13, 20}) set.Add(s);
  set.CoverThrough(8);  // 3, 5 and 7 inside, 9 touching: one range 1-9
  EXPECT_EQ(set.ToEntries(), (Entries{"1-9", "12-13", "20-20"}));
  EXPECT_EQ(set.range_count(), 3u);
  set.CoverThrough(12);  // ends inside 12-13: it extends to 13
  EXPECT_EQ(set.ToEntries(), (Entries{"1-13", "20-20"}));
  set.CoverThrough(5);  // below what is covered: no change
  EXPECT_EQ(set.ToEntries(), (Entries{"1-13", "20-20"}));
  set.CoverThrough(30);  // past every range
  EXPECT_EQ(set.ToEntries(), (Entries{"1-30"}));
  EXPECT_TRUE(set.Contains(1) && set.Contains(30) && !set.Contains(31));
  set.CoverThrough(UINT64_MAX);
  EXPECT_EQ(set.ToEntries(), (Entries{"1-18446744073709551615"}));
  SequenceRanges gap;
  gap.Add(10);
  gap.CoverThrough(8);  // 9 stays out: two ranges
  EXPECT_EQ(gap.ToEntries(), (Entries{"1-8", "10-10"}));
}

TEST(SequenceRangesTest, ContainsOnlyTheSequencesAdded) {
  SequenceRanges set;
  for (uint64_t s : {2, 3, 4, 7}) set.Add(s);
  for (uint64_t s : {2, 3, 4, 7}) EXPECT_TRUE(set.Contains(s)) << s;
  for (uint64_t s : {0, 1, 5, 6, 8, 1000}) EXPECT_FALSE(set.Contains(s)) << s;
}

TEST(SequenceRangesTest, EntriesRoundTrip) {
  auto set = SequenceRanges::FromEntries({"1-100", "102-102", "200-18446744073709551615"});
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  EXPECT_TRUE(set->Contains(100));
  EXPECT_FALSE(set->Contains(101));
  EXPECT_TRUE(set->Contains(UINT64_MAX));
  EXPECT_EQ(set->ToEntries(), (Entries{"1-100", "102-102", "200-18446744073709551615"}));
  EXPECT_TRUE(SequenceRanges::FromEntries({})->empty());
}

TEST(SequenceRangesTest, EntriesThatAreNotAscendingRangesAreRefusedByName) {
  for (const Entries& bad : {Entries{"5"}, Entries{"a-b"}, Entries{"1-2x"}, Entries{"3-2"}, Entries{"0-4"},
                             Entries{"1-5", "6-9"}, Entries{"4-5", "1-2"}, Entries{"-3"}, Entries{"1--3"}}) {
    auto set = SequenceRanges::FromEntries(bad);
    ASSERT_FALSE(set.ok()) << bad.back();
    EXPECT_EQ(set.status().code(), StatusCode::kDataError);
    EXPECT_NE(set.status().message().find("'" + bad.back() + "'"), std::string::npos) << set.status().message();
  }
}

}  // namespace
}  // namespace recflow::nats
