// skip_corrupt: every intact record after damage is recovered, and the damage is counted.
#include <gtest/gtest.h>

#include "recflow/formats/tfrecord/test_util_internal.h"

namespace recflow::tfrecord {
namespace {

using testing::EncodeRecords;
using testing::ReadAll;
using testing::RecordOffsets;
using testing::SampleRecords;

struct Outcome {
  std::vector<std::string> records;
  int64_t corrupt = 0;
  int64_t skipped = 0;
  std::vector<Status> problems;
};

enum class Input { kBuffer, kStream, kGzipBuffer, kGzipStream };

Outcome ReadSkipping(const std::string& bytes, Input input) {
  ReaderOptions options = ReaderOptions::Defaults();
  options.skip_corrupt = true;
  std::string data = bytes;
  if (input == Input::kGzipBuffer || input == Input::kGzipStream) {
    auto compressed = CompressBuffer(Compression::kGzip, std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    EXPECT_TRUE(compressed.ok());
    data = std::string((*compressed)->view());
  }
  auto buffer = Buffer::FromString(data);
  const bool stream = input == Input::kStream || input == Input::kGzipStream;
  auto reader = stream ? RecordReader::FromStream(std::make_unique<BufferInputStream>(buffer, "damaged"), options)
                       : RecordReader::FromBuffer(buffer, "damaged", options);
  EXPECT_TRUE(reader.ok());
  if (!reader.ok()) return {};
  auto records = ReadAll(**reader);
  EXPECT_TRUE(records.ok()) << records.status().ToString();
  if (!records.ok()) return {};
  EXPECT_EQ((*reader)->record_index(), static_cast<int64_t>(records->size()) - 1);
  return {*records, (*reader)->corrupt_records(), (*reader)->skipped_bytes(), (*reader)->problems()};
}

std::vector<std::string> Without(std::vector<std::string> records, std::initializer_list<size_t> drop) {
  std::vector<std::string> out;
  for (size_t i = 0; i < records.size(); ++i) {
    if (std::find(drop.begin(), drop.end(), i) == drop.end()) out.push_back(records[i]);
  }
  return out;
}

class SkipCorruptTest : public ::testing::TestWithParam<Input> {
 protected:
  void SetUp() override {
    // Distinct, non-empty records so that each can be recognised.
    for (int i = 0; i < 40; ++i) records_.push_back("record-" + std::to_string(i) + std::string(static_cast<size_t>(i * 37 % 300), 'q'));
    offsets_ = RecordOffsets(records_);
    auto bytes = EncodeRecords(records_);
    ASSERT_TRUE(bytes.ok());
    bytes_ = *bytes;
  }
  size_t At(int record, int64_t delta = 0) const { return static_cast<size_t>(offsets_[static_cast<size_t>(record)] + delta); }

  std::vector<std::string> records_;
  std::vector<int64_t> offsets_;
  std::string bytes_;
};

TEST_P(SkipCorruptTest, IntactFileHasNoProblems) {
  Outcome out = ReadSkipping(bytes_, GetParam());
  EXPECT_EQ(out.records, records_);
  EXPECT_EQ(out.corrupt, 0);
  EXPECT_EQ(out.skipped, 0);
  EXPECT_TRUE(out.problems.empty());
}

TEST_P(SkipCorruptTest, CorruptedDataByte) {
  std::string bytes = bytes_;
  bytes[At(10, kHeaderSize + 2)] ^= 0x55;
  Outcome out = ReadSkipping(bytes, GetParam());
  EXPECT_EQ(out.records, Without(records_, {10}));
  EXPECT_EQ(out.corrupt, 1);
  EXPECT_EQ(out.skipped, offsets_[11] - offsets_[10]);
  ASSERT_EQ(out.problems.size(), 1u);
  EXPECT_EQ(out.problems[0].context().record, 10);
  EXPECT_EQ(out.problems[0].context().offset, offsets_[10]);
  EXPECT_EQ(out.problems[0].context().file, "damaged");
  EXPECT_NE(out.problems[0].message().find("bad data CRC"), std::string::npos);
}

TEST_P(SkipCorruptTest, CorruptedLength) {
  std::string bytes = bytes_;
  bytes[At(5, 1)] ^= 0x01;
  bytes[At(20, 3)] ^= 0x80;
  Outcome out = ReadSkipping(bytes, GetParam());
  EXPECT_EQ(out.records, Without(records_, {5, 20}));
  EXPECT_EQ(out.corrupt, 2);
  ASSERT_EQ(out.problems.size(), 2u);
  EXPECT_EQ(out.problems[0].context().offset, offsets_[5]);
  EXPECT_EQ(out.problems[0].context().record, 5);
  EXPECT_EQ(out.problems[1].context().offset, offsets_[20]);
  EXPECT_EQ(out.problems[1].context().record, 19);  // good records returned before it
  EXPECT_NE(out.problems[1].message().find("bad length CRC"), std::string::npos);
}

TEST_P(SkipCorruptTest, DeletedChunkInTheMiddle) {
  // Delete from inside record 12's data to inside record 17's data: 12..17 are lost.
  std::string bytes = bytes_;
  const size_t from = At(12, kHeaderSize + 4);
  const size_t to = At(17, kHeaderSize + 2);
  bytes.erase(from, to - from);
  Outcome out = ReadSkipping(bytes, GetParam());
  EXPECT_EQ(out.records, Without(records_, {12, 13, 14, 15, 16, 17}));
  EXPECT_EQ(out.corrupt, 1);
}

TEST_P(SkipCorruptTest, GarbageBetweenRecords) {
  std::string bytes = bytes_;
  std::string garbage;
  for (int i = 0; i < 333; ++i) garbage.push_back(static_cast<char>(i * 7 + 3));
  bytes.insert(At(8), garbage);
  Outcome out = ReadSkipping(bytes, GetParam());
  EXPECT_EQ(out.records, records_);
  EXPECT_EQ(out.corrupt, 1);
  EXPECT_EQ(out.skipped, 333);
  ASSERT_EQ(out.problems.size(), 1u);
  EXPECT_EQ(out.problems[0].context().offset, offsets_[8]);
}

TEST_P(SkipCorruptTest, TruncatedTail) {
  std::string bytes = bytes_.substr(0, At(39, 20));
  Outcome out = ReadSkipping(bytes, GetParam());
  EXPECT_EQ(out.records, Without(records_, {39}));
  EXPECT_EQ(out.corrupt, 1);
  EXPECT_EQ(out.skipped, 20);
  ASSERT_EQ(out.problems.size(), 1u);
  EXPECT_NE(out.problems[0].message().find("truncated data"), std::string::npos);
}

TEST_P(SkipCorruptTest, TruncatedHeaderAtTheEnd) {
  std::string bytes = bytes_ + bytes_.substr(0, 7);
  Outcome out = ReadSkipping(bytes, GetParam());
  EXPECT_EQ(out.records, records_);
  EXPECT_EQ(out.corrupt, 1);
  EXPECT_EQ(out.skipped, 7);
}

TEST_P(SkipCorruptTest, ManyProblemsKeepOnlyTheFirstFew) {
  std::string bytes = bytes_;
  for (int r = 0; r < 40; r += 2) bytes[At(r, kHeaderSize)] ^= 0x01;
  Outcome out = ReadSkipping(bytes, GetParam());
  EXPECT_EQ(out.records.size(), 20u);
  EXPECT_EQ(out.corrupt, 20);
  EXPECT_EQ(out.problems.size(), RecordReader::kMaxKeptProblems);
}

TEST_P(SkipCorruptTest, NothingValid) {
  Outcome out = ReadSkipping(std::string(1000, '\x42'), GetParam());
  EXPECT_TRUE(out.records.empty());
  EXPECT_EQ(out.corrupt, 1);
  EXPECT_EQ(out.skipped, 1000);
}

INSTANTIATE_TEST_SUITE_P(Inputs, SkipCorruptTest,
                         ::testing::Values(Input::kBuffer, Input::kStream, Input::kGzipBuffer, Input::kGzipStream),
                         [](const auto& info) {
                           switch (info.param) {
                             case Input::kBuffer: return std::string("Buffer");
                             case Input::kStream: return std::string("Stream");
                             case Input::kGzipBuffer: return std::string("GzipBuffer");
                             case Input::kGzipStream: return std::string("GzipStream");
                           }
                           return std::string();
                         });

}  // namespace
}  // namespace recflow::tfrecord
