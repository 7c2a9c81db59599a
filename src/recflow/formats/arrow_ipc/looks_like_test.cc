// Tests of LooksLikeStream / LooksLikeFile: Arrow's golden files, Arrow JS legacy streams, hand-built heads, and no Arrow in TFRecord, CSV or random bytes.
#include "recflow/formats/arrow_ipc/looks_like.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/test_messages_internal.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

namespace fs = std::filesystem;

std::string Read(const fs::path& path) {
  auto buffer = ReadWholeFile(path.string());
  EXPECT_TRUE(buffer.ok()) << path;
  return buffer.ok() ? std::string((*buffer)->view()) : std::string();
}

/// Every prefix of `bytes` up to 512 bytes is either too short to tell or `want`; the whole is `want`.
void ExpectStreamHeads(const std::string& bytes, StreamFraming want, const std::string& what) {
  EXPECT_EQ(LooksLikeStream(bytes), want) << what;
  int told = 0;
  for (size_t n = 0; n <= std::min<size_t>(bytes.size(), 512); ++n) {
    const StreamFraming got = LooksLikeStream(std::string_view(bytes).substr(0, n));
    if (got == StreamFraming::kNotAStream) {
      EXPECT_EQ(told, 0) << what << ": recognised at a shorter head than " << n;
      continue;
    }
    EXPECT_EQ(got, want) << what << " head " << n;
    ++told;
  }
  EXPECT_GT(told, 0) << what << ": not recognised from its first 512 bytes";
}

TEST(ArrowIpcLooksLike, EveryGoldenStreamAndFile) {
  RECFLOW_REQUIRE_TESTDATA();
  int streams = 0, files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(recflow::testing::TestdataDir() / "arrow-integration")) {
    if (!entry.is_regular_file()) continue;
    const std::string bytes = Read(entry.path());
    const std::string what = entry.path().filename().string();
    if (entry.path().extension() == ".stream") {
      ExpectStreamHeads(bytes, StreamFraming::kContinuation, what);
      EXPECT_FALSE(LooksLikeFile(bytes)) << what;
      ++streams;
    } else if (entry.path().extension() == ".arrow_file") {
      EXPECT_TRUE(LooksLikeFile(bytes)) << what;
      EXPECT_TRUE(LooksLikeFile(std::string_view(bytes).substr(0, 8))) << what;  // the magic alone
      EXPECT_EQ(LooksLikeStream(bytes), StreamFraming::kNotAStream) << what;
      ++files;
    } else {  // the JSON of the expected values
      EXPECT_EQ(LooksLikeStream(bytes), StreamFraming::kNotAStream) << what;
      EXPECT_FALSE(LooksLikeFile(bytes)) << what;
    }
  }
  EXPECT_EQ(streams, 27);
  EXPECT_EQ(files, 27);
}

TEST(ArrowIpcLooksLike, LegacyStreamsOfArrowJsAndByHand) {
  const std::string corpus = RECFLOW_ARROW_IPC_CORPUS;
  // Arrow JS writing with writeLegacyIpcFormat, and its current stream re-framed message by message.
  ExpectStreamHeads(Read(corpus + "/primitive_legacy_js.arrows"), StreamFraming::kLegacy, "legacy_js");
  ExpectStreamHeads(Read(corpus + "/primitive_legacy.arrows"), StreamFraming::kLegacy, "legacy");
  ExpectStreamHeads(Read(corpus + "/primitive.arrows"), StreamFraming::kContinuation, "primitive");
  EXPECT_TRUE(LooksLikeFile(Read(corpus + "/primitive.arrow")));  // its first message is a dictionary batch

  flatbuffers::FlatBufferBuilder fbb;
  testing::FinishSchemaMessage(
      fbb, {testing::MakeField(fbb, "x", fb::Type::Int, fb::CreateInt(fbb, 32, true).Union())}, fb::MetadataVersion::V4);
  ExpectStreamHeads(testing::Frame(fbb, "", /*legacy=*/true) + std::string(4, '\0'), StreamFraming::kLegacy, "hand");
  ExpectStreamHeads(testing::Frame(fbb) + testing::EndOfStream(), StreamFraming::kContinuation, "hand");
}

TEST(ArrowIpcLooksLike, MessagesThatDoNotStartAStream) {
  // A stream must start with a schema: a record batch first is not one.
  const std::string batch = testing::RecordBatchMessage(1, {fb::FieldNode(1, 0)}, {{0, 0}, {0, 8}}, 8);
  EXPECT_EQ(LooksLikeStream(batch), StreamFraming::kNotAStream);
  std::string schema = testing::Int32SchemaMessage();
  ASSERT_EQ(LooksLikeStream(schema), StreamFraming::kContinuation);
  for (const int32_t length : {0, -8, (64 << 20) + 8, static_cast<int32_t>(schema.size())}) {
    std::string bad = schema;
    std::memcpy(bad.data() + 4, &length, 4);  // the last: longer than the head, the table is still seen
    EXPECT_EQ(LooksLikeStream(bad), length == static_cast<int32_t>(schema.size()) ? StreamFraming::kContinuation
                                                                                  : StreamFraming::kNotAStream)
        << length;
  }
  // A version beyond V5.
  flatbuffers::FlatBufferBuilder fbb;
  auto empty = fb::CreateSchemaDirect(fbb);
  fbb.Finish(fb::CreateMessage(fbb, static_cast<fb::MetadataVersion>(9), fb::MessageHeader::Schema, empty.Union()));
  EXPECT_EQ(LooksLikeStream(testing::Frame(fbb)), StreamFraming::kNotAStream);
  EXPECT_FALSE(LooksLikeFile("ARROW1"));     // too short for its padding
  EXPECT_FALSE(LooksLikeFile("ARROW1xx"));   // padding not zero
  EXPECT_TRUE(LooksLikeFile(std::string("ARROW1\0\0", 8) + batch));  // a file's first message may be a batch
  EXPECT_FALSE(LooksLikeFile(std::string("ARROW1\0\0", 8) + "\xFF\xFF\xFF\xFF\x08\0\0\0" + std::string(8, '\x7F')));
}

TEST(ArrowIpcLooksLike, NoArrowInTfrecordCsvOrRandomBytes) {
  RECFLOW_REQUIRE_TESTDATA();
  int others = 0;
  for (const char* dir : {"tfrecord", "csv"}) {
    for (const auto& entry : fs::recursive_directory_iterator(recflow::testing::TestdataDir() / dir)) {
      if (!entry.is_regular_file()) continue;
      const std::string bytes = Read(entry.path());
      EXPECT_EQ(LooksLikeStream(bytes), StreamFraming::kNotAStream) << entry.path();
      EXPECT_FALSE(LooksLikeFile(bytes)) << entry.path();
      ++others;
    }
  }
  EXPECT_GT(others, 4);
  std::mt19937_64 rng(20261125);
  for (int trial = 0; trial < 200000; ++trial) {
    std::string head(64, '\0');
    for (char& c : head) c = static_cast<char>(rng());
    if (trial % 2 == 0) std::memcpy(head.data(), "\xFF\xFF\xFF\xFF", 4);  // a continuation marker, then noise
    if (trial % 4 == 1) head[2] = head[3] = '\0';                      // a plausible legacy length
    ASSERT_EQ(LooksLikeStream(head), StreamFraming::kNotAStream) << trial;
    ASSERT_FALSE(LooksLikeFile(head)) << trial;
  }
}

}  // namespace
}  // namespace recflow::arrow_ipc
