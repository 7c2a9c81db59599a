// Epoch tags: generation 0 keeps the `e0000003` of runs before generations, later ones carry `g0002`; every tag made
// reads back from a file name after its prefix, and names that carry no tag, or one spelled otherwise, read as none.
#include "recflow/pipeline/epoch_tag.h"

#include <gtest/gtest.h>

namespace recflow::pipeline {
namespace {

TEST(EpochTagTest, GenerationZeroKeepsTheTagsOfRunsBeforeGenerations) {
  EXPECT_EQ(EpochTag({0, 3}), "e0000003");
  EXPECT_EQ(EpochTag({2, 3}), "g0002e0000003");
  EXPECT_EQ(EpochTag({12345, 12345678}), "g12345e12345678");
}

TEST(EpochTagTest, EveryTagMadeReadsBackFromAFileName) {
  for (const EpochId id : {EpochId{0, 0}, EpochId{0, 41}, EpochId{1, 0}, EpochId{7, 9999999}, EpochId{10000, 10000000}}) {
    const std::string name = "part-" + EpochTag(id) + "-00000-of-00001.jsonl";
    EXPECT_EQ(ParseEpochTag(name, "part"), id) << name;
  }
  EXPECT_EQ(ParseEpochTag("my-prefix-g0003e0000002-00001-of-00004", "my-prefix"), (EpochId{3, 2}));
}

TEST(EpochTagTest, NamesWithoutATagOrWithAnotherSpellingReadAsNone) {
  for (const char* name : {"part-1f5b4d1a-00000-of-00004.jsonl",  // an append's job tag
                           "part-00000-of-00001.jsonl", "part-e000003-00000-of-00001", "part-e00000031-00000-of-00001",
                           "part-g0000e0000001-00000-of-00001", "part-g01e0000001-00000-of-00001",
                           "part-ge0000001-00000-of-00001", "part-g0001-00000-of-00001", "part-e0000001",
                           "part-e-000001-00000-of-00001", "part-e+000001-00000-of-00001", "parte0000001-00000-of-00001",
                           "other-e0000001-00000-of-00001", "part-e99999999999999999999-0", "_SUCCESS"}) {
    EXPECT_EQ(ParseEpochTag(name, "part"), std::nullopt) << name;
  }
}

}  // namespace
}  // namespace recflow::pipeline
