// Tests of VocabularyCounter, ApplyVocabulary, vocabulary files, HashBucket, XxHash64 and OneHot.
#include "recflow/ops/columns/vocabulary.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "recflow/columnar/validate.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/ops/columns/columns_test_util_internal.h"
#include "recflow/ops/columns/hash_bucket.h"
#include "recflow/ops/columns/one_hot.h"
#include "recflow/ops/columns/vocabulary_file.h"
#include "recflow/ops/columns/xxhash64.h"
#include "recflow/testing/testdata.h"

namespace recflow::ops {
namespace {

using testing::Numbers;
using testing::SameArray;
using testing::StringLists;
using testing::Strings;

using Texts = std::vector<std::string>;

TEST(XxHash64Test, SpecVectors) {
  // Seed 0 vectors published with xxHash and its ports (empty, short, 31 bytes, > 32 bytes).
  EXPECT_EQ(XxHash64(""), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(XxHash64("a"), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(XxHash64("abc"), 0x44BC2CF5AD770999ULL);
  EXPECT_EQ(XxHash64("ABC"), 0xE66AE7354FCFEE98ULL);
  EXPECT_EQ(XxHash64("xxhash"), 0x32DD38952C4BC720ULL);
  EXPECT_EQ(XxHash64("abcdefghijklmnopqrstuvwxyz12345"), 0x467605901B01D6F6ULL);
  EXPECT_EQ(XxHash64("The quick brown fox jumps over the lazy dog"), 0x0B242D361FDA71BCULL);
  EXPECT_EQ(XxHash64("", 668718853), 0x04E830582A31A119ULL);
}

TEST(HashBucketTest, StableBucketsForTextIntegersAndLists) {
  auto out = HashBucket(*Strings({"abc", std::nullopt, ""}), 1000);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(SameArray(**out, *Numbers<int64_t>({static_cast<int64_t>(0x44BC2CF5AD770999ULL % 1000), std::nullopt,
                                                   static_cast<int64_t>(0xEF46DB3751D8E999ULL % 1000)})));
  // Integers hash their decimal text.
  auto ints = HashBucket(*Numbers<int32_t>({42, -7}), 97);
  auto texts = HashBucket(*Strings({"42", "-7"}), 97);
  ASSERT_TRUE(ints.ok() && texts.ok());
  EXPECT_TRUE(SameArray(**ints, **texts));
  auto lists = HashBucket(*StringLists({std::vector<std::optional<std::string>>{"abc", std::nullopt}, std::nullopt}), 1000);
  ASSERT_TRUE(lists.ok());
  EXPECT_EQ((*lists)->type->ToString(), "list<int64>");
  EXPECT_TRUE(ValidateFull(**lists).ok());
  EXPECT_FALSE(HashBucket(*Strings({"x"}), 0).ok());
  EXPECT_EQ(HashBucket(*Numbers<double>({1.0}), 10).status().code(), StatusCode::kTypeError);
}

TEST(VocabularyTest, RanksByCountThenValue) {
  VocabularyCounter counter;
  ASSERT_TRUE(counter.Add(*Strings({"b", "a", "c", "b", std::nullopt, "a", "d", "b"})).ok());
  const Vocabulary all = *counter.Finish();
  EXPECT_EQ(all.values(), (Texts{"b", "a", "c", "d"}));
  EXPECT_EQ(all.counts(), (std::vector<int64_t>{3, 2, 1, 1}));
  EXPECT_EQ(counter.Finish({.top_k = 2})->values(), (Texts{"b", "a"}));
  EXPECT_EQ(counter.Finish({.min_frequency = 2})->values(), (Texts{"b", "a"}));
  EXPECT_EQ(counter.Finish({.top_k = 0})->size(), 0);
  EXPECT_EQ(VocabularyCounter().Finish()->size(), 0);
  EXPECT_FALSE(counter.Finish({.min_frequency = 0}).ok());
  EXPECT_FALSE(counter.Finish({.top_k = -2}).ok());
}

TEST(VocabularyTest, MergedPartsEqualOnePass) {
  std::vector<std::optional<std::string>> values;
  for (int i = 0; i < 3000; ++i) values.push_back("v" + std::to_string((i * i) % 41 % (1 + i % 13)));
  auto column = Strings(values);
  VocabularyCounter single;
  ASSERT_TRUE(single.Add(*column).ok());
  VocabularyCounter merged;
  for (int64_t start : {0, 1000, 2900, 3000}) {
    VocabularyCounter part;
    ASSERT_TRUE(part.Add(*column->Slice(start, start == 0 ? 1000 : start == 1000 ? 1900 : 100)).ok());
    merged.Merge(part);
  }
  EXPECT_EQ(merged.num_distinct(), single.num_distinct());
  const VocabularyOptions options{.top_k = 10, .min_frequency = 2};
  EXPECT_EQ(merged.Finish(options)->values(), single.Finish(options)->values());
  EXPECT_EQ(merged.Finish()->values(), single.Finish()->values());
  EXPECT_EQ(merged.Finish()->counts(), single.Finish()->counts());
}

TEST(VocabularyTest, IntegersAndListElements) {
  VocabularyCounter counter;
  ASSERT_TRUE(counter.Add(*Numbers<int64_t>({5, -1, 5})).ok());
  ASSERT_TRUE(counter.Add(*StringLists({std::vector<std::optional<std::string>>{"5", "x"}, std::nullopt})).ok());
  EXPECT_EQ(counter.Finish()->values(), (Texts{"5", "-1", "x"}));
  EXPECT_EQ(counter.Add(*Numbers<float>({1})).code(), StatusCode::kTypeError);
}

TEST(ApplyVocabularyTest, IdsOovBucketsAndDefaults) {
  auto vocab = Vocabulary::Make({"cat", "dog"});
  ASSERT_TRUE(vocab.ok());
  auto column = Strings({"dog", "cow", std::nullopt, "cat"});
  auto plain = ApplyVocabulary(*column, *vocab);
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(SameArray(**plain, *Numbers<int64_t>({1, -1, std::nullopt, 0})));
  auto with_default = ApplyVocabulary(*column, *vocab, {.default_value = 99});
  ASSERT_TRUE(with_default.ok());
  EXPECT_TRUE(SameArray(**with_default, *Numbers<int64_t>({1, 99, std::nullopt, 0})));
  auto oov = ApplyVocabulary(*column, *vocab, {.num_oov_buckets = 3});
  ASSERT_TRUE(oov.ok());
  EXPECT_TRUE(SameArray(**oov, *Numbers<int64_t>({1, 2 + HashBucketOf("cow", 3), std::nullopt, 0})));
  auto lists = ApplyVocabulary(*StringLists({std::vector<std::optional<std::string>>{"cat", "eel"}}), *vocab);
  ASSERT_TRUE(lists.ok());
  EXPECT_EQ((*lists)->type->ToString(), "list<int64>");
  EXPECT_FALSE(ApplyVocabulary(*column, *vocab, {.num_oov_buckets = -1}).ok());
  EXPECT_FALSE(Vocabulary::Make({"a", "a"}).ok());
  EXPECT_FALSE(Vocabulary::Make({"a"}, {1, 2}).ok());
}

TEST(VocabularyFileTest, RoundTrips) {
  recflow::testing::ScratchDir dir;
  FileSystem& fs = *LocalFileSystem::Instance();
  VocabularyCounter counter;
  ASSERT_TRUE(counter.Add(*Strings({"b", "", "a b", "b"})).ok());
  const Vocabulary vocab = *counter.Finish();
  const std::string plain = dir.File("vocab.txt");
  ASSERT_TRUE(WriteVocabularyFile(fs, plain, vocab).ok());
  std::ifstream in(plain, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "b\n\na b\n");
  auto read = ReadVocabularyFile(fs, plain);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->values(), vocab.values());
  EXPECT_TRUE(read->counts().empty());
  EXPECT_EQ(read->Lookup("a b"), 2);

  const std::string counted = dir.File("counts.txt");
  ASSERT_TRUE(WriteVocabularyFile(fs, counted, vocab, true).ok());
  auto read_counts = ReadVocabularyFile(fs, counted, true);
  ASSERT_TRUE(read_counts.ok());
  EXPECT_EQ(read_counts->values(), vocab.values());
  EXPECT_EQ(read_counts->counts(), vocab.counts());
  EXPECT_FALSE(ReadVocabularyFile(fs, plain, true).ok());

  auto bad = Vocabulary::Make({"two\nlines"});
  ASSERT_TRUE(bad.ok());
  EXPECT_FALSE(WriteVocabularyFile(fs, dir.File("bad.txt"), *bad).ok());
  std::ofstream(dir.File("dup.txt")) << "x\r\ny\nx";
  auto dup = ReadVocabularyFile(fs, dir.File("dup.txt"));
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().ToString().find("dup.txt"), std::string::npos);
}

TEST(OneHotTest, FixedSizeListOfFloat32) {
  auto out = OneHot(*Numbers<int64_t>({0, 2, std::nullopt, 3, -1}), 3);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_TRUE(ValidateFull(**out).ok());
  EXPECT_EQ((*out)->type->ToString(), "fixed_size_list<float32>[3]");
  EXPECT_EQ((*out)->null_count, 1);
  const float* v = (*out)->children[0]->GetValues<float>(1);
  const std::vector<float> expected = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(std::vector<float>(v, v + 15), expected);
  EXPECT_FALSE(OneHot(*Numbers<int64_t>({0}), 0).ok());
  EXPECT_FALSE(OneHot(*Strings({"0"}), 2).ok());
  auto empty = OneHot(*Numbers<int64_t>({}), 4);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)->length, 0);
}

}  // namespace
}  // namespace recflow::ops
