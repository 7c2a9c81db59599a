// Tests of EditDistance and ClosestName.
#include "recflow/core/spelling.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace recflow {
namespace {

TEST(SpellingTest, EditDistanceCountsInsertDeleteSubstituteAndSwap) {
  EXPECT_EQ(EditDistance("", ""), 0);
  EXPECT_EQ(EditDistance("abc", ""), 3);
  EXPECT_EQ(EditDistance("convrt", "convert"), 1);    // a letter missing
  EXPECT_EQ(EditDistance("covnert", "convert"), 1);   // two neighbours swapped
  EXPECT_EQ(EditDistance("inspect", "inspecd"), 1);   // one substituted
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3);
}

TEST(SpellingTest, ClosestNameSuggestsOnlyPlausibleSlips) {
  const std::vector<std::string> commands = {"cat", "convert", "inspect", "plan", "run", "serve", "steps"};
  EXPECT_EQ(ClosestName("convrt", commands), "convert");
  EXPECT_EQ(ClosestName("covnert", commands), "convert");
  EXPECT_EQ(ClosestName("insp", commands), "inspect");   // a prefix of one name
  EXPECT_EQ(ClosestName("s", commands), "");            // a prefix of several, too short to guess
  EXPECT_EQ(ClosestName("xyzzy", commands), "");
  EXPECT_EQ(ClosestName("convert", commands), "");      // already a name
  EXPECT_EQ(ClosestName("", commands), "");
}

}  // namespace
}  // namespace recflow
