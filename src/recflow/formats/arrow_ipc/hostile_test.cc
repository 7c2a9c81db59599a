// Hostile input: truncations, byte flips and lying lengths in real and hand-built IPC files give DataErrors, never crashes or huge allocations.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/stream_reader.h"
#include "recflow/formats/arrow_ipc/test_messages_internal.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

std::string ReadBytes(const std::string& relative) {
  auto buffer = ReadWholeFile((recflow::testing::TestdataDir() / "arrow-integration" / relative).string());
  return buffer.ok() ? std::string((*buffer)->view()) : std::string();
}

// Walks `bytes` as a stream (through a buffer and through an InputStream); returns the first
// error, or OK when the whole stream reads.
Status WalkStream(const std::string& bytes, bool through_input_stream) {
  auto data = Buffer::FromString(bytes);
  Result<std::unique_ptr<StreamReader>> reader =
      through_input_stream ? [&]() -> Result<std::unique_ptr<StreamReader>> {
        ASSIGN_OR_RETURN(auto messages, MessageReader::FromStream(std::make_unique<BufferInputStream>(data, "hostile")));
        return StreamReader::Open(std::move(messages));
      }()
                           : StreamReader::Open(data, "hostile");
  if (!reader.ok()) return reader.status();
  while (true) {
    ASSIGN_OR_RETURN(auto batch, (*reader)->Next());
    if (!batch) return Status::OK();
  }
}

// Opens `bytes` as a file and reads every block; returns the first error.
Status WalkFile(const std::string& bytes) {
  ASSIGN_OR_RETURN(auto reader, FileReader::Open(Buffer::FromString(bytes), "hostile"));
  for (int i = 0; i < reader->num_dictionaries(); ++i) RETURN_NOT_OK(reader->ReadDictionary(i).status());
  for (int i = 0; i < reader->num_record_batches(); ++i) RETURN_NOT_OK(reader->ReadRecordBatch(i).status());
  return Status::OK();
}

void ExpectOkOrDataError(const Status& status, const std::string& what) {
  if (status.ok()) return;
  EXPECT_EQ(status.code(), StatusCode::kDataError) << what << ": " << status.ToString();
  EXPECT_EQ(status.context().file, "hostile") << what;
  EXPECT_GE(status.context().offset, 0) << what << ": " << status.ToString();
}

const char* const kCases[] = {"1.0.0-littleendian/generated_nested_dictionary",
                              "1.0.0-littleendian/generated_union", "2.0.0-compression/generated_lz4"};

TEST(ArrowIpcHostile, EveryPrefixOfRealFiles) {
  RECFLOW_REQUIRE_TESTDATA();
  for (const char* name : kCases) {
    const std::string stream = ReadBytes(std::string(name) + ".stream");
    const std::string file = ReadBytes(std::string(name) + ".arrow_file");
    ASSERT_FALSE(stream.empty() || file.empty()) << name;
    ASSERT_TRUE(WalkStream(stream, false).ok()) << name;
    ASSERT_TRUE(WalkFile(file).ok()) << name;
    for (size_t n = 0; n < stream.size(); ++n) {
      const std::string prefix = stream.substr(0, n);
      ExpectOkOrDataError(WalkStream(prefix, false), std::string(name) + " stream prefix " + std::to_string(n));
      ExpectOkOrDataError(WalkStream(prefix, true), std::string(name) + " stream prefix " + std::to_string(n));
    }
    for (size_t n = 0; n < file.size(); ++n) {
      // A file cut anywhere loses its trailing magic.
      const Status status = WalkFile(file.substr(0, n));
      EXPECT_EQ(status.code(), StatusCode::kDataError) << name << " file prefix " << n;
    }
  }
}

TEST(ArrowIpcHostile, RandomByteFlips) {
  RECFLOW_REQUIRE_TESTDATA();
  std::mt19937 rng(20261123);
  for (const char* name : kCases) {
    for (const char* suffix : {".stream", ".arrow_file"}) {
      const std::string original = ReadBytes(std::string(name) + suffix);
      ASSERT_FALSE(original.empty());
      const bool is_file = std::string(suffix) == ".arrow_file";
      for (int trial = 0; trial < 5000; ++trial) {
        std::string bytes = original;
        const size_t at = rng() % bytes.size();
        bytes[at] = static_cast<char>(rng() % 256);
        const std::string what = std::string(name) + suffix + " byte " + std::to_string(at);
        if (is_file) {
          ExpectOkOrDataError(WalkFile(bytes), what);
        } else {
          ExpectOkOrDataError(WalkStream(bytes, trial % 2 == 0), what);
        }
      }
    }
  }
}

int64_t MaxRssBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

TEST(ArrowIpcHostile, LyingLengthsDoNotAllocate) {
  const int64_t before = MaxRssBytes();
  // A metadata length just under the limit, with 16 bytes behind it, through a stream.
  std::string lying_metadata = std::string("\xFF\xFF\xFF\xFF", 4);
  const int32_t length = (int32_t{60} << 20);
  lying_metadata.append(reinterpret_cast<const char*>(&length), 4);
  lying_metadata.append(16, '\0');
  EXPECT_EQ(WalkStream(lying_metadata, true).code(), StatusCode::kDataError);
  EXPECT_EQ(WalkStream(lying_metadata, false).code(), StatusCode::kDataError);
  // A body of 2^40 bytes declared by a schema message followed by nothing.
  for (const int64_t body : {int64_t{1} << 40, (int64_t{1} << 31) + 8, int64_t{INT64_MAX}}) {
    flatbuffers::FlatBufferBuilder fbb;
    auto schema = fb::CreateSchemaDirect(fbb);
    fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::Schema, schema.Union(), body));
    const std::string framed = testing::Frame(fbb) + std::string(100, '\0');
    EXPECT_EQ(WalkStream(framed, true).code(), StatusCode::kDataError) << body;
    EXPECT_EQ(WalkStream(framed, false).code(), StatusCode::kDataError) << body;
  }
  // Nothing near those sizes was ever touched (the stream reader reads 1 MiB pieces).
  EXPECT_LT(MaxRssBytes() - before, int64_t{32} << 20);
}

TEST(ArrowIpcHostile, FileFooterAndBlocksAreChecked) {
  const std::string schema = testing::Int32SchemaMessage();
  const std::string batch = testing::RecordBatchMessage(3, {{3, 0}}, {{0, 0}, {0, 12}}, 16);
  const int32_t metadata_length = static_cast<int32_t>(batch.size()) - 16;
  const std::string good = testing::MakeFile(schema, batch, metadata_length);
  ASSERT_TRUE(WalkFile(good).ok()) << WalkFile(good).ToString();
  auto reader = FileReader::Open(Buffer::FromString(good), "hostile");
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->num_record_batches(), 1);
  EXPECT_EQ((*reader)->record_batch_block(0).offset, 8 + static_cast<int64_t>(schema.size()));
  EXPECT_EQ((*reader)->ReadRecordBatch(1).status().code(), StatusCode::kInvalidArgument);

  const auto error_of = [](const std::string& bytes) { return WalkFile(bytes).ToString(); };
  std::string bad_magic = good;
  bad_magic[bad_magic.size() - 1] = 'X';
  EXPECT_NE(error_of(bad_magic).find("does not end with ARROW1"), std::string::npos);
  std::string bad_start = good;
  bad_start[0] = 'a';
  EXPECT_NE(error_of(bad_start).find("does not start with ARROW1"), std::string::npos);
  std::string huge_footer = good;
  const int32_t huge = 0x7FFFFFF0;
  std::memcpy(huge_footer.data() + huge_footer.size() - 10, &huge, 4);
  EXPECT_NE(error_of(huge_footer).find("footer length 2147483632 is out of range"), std::string::npos);

  const int64_t at = 8 + static_cast<int64_t>(schema.size());
  EXPECT_NE(error_of(testing::MakeFile(schema, batch, 0, fb::Block(at, metadata_length, int64_t{1} << 40)))
                .find("lies outside the file's messages"),
            std::string::npos);
  for (const int64_t offset : {int64_t{4}, INT64_MIN, INT64_MAX}) {
    EXPECT_NE(error_of(testing::MakeFile(schema, batch, 0, fb::Block(offset, metadata_length, 16)))
                  .find("lies outside the file's messages"),
              std::string::npos)
        << offset;
  }
  EXPECT_NE(error_of(testing::MakeFile(schema, batch, 0, fb::Block(at, metadata_length, INT64_MAX)))
                .find("lies outside the file's messages"),
            std::string::npos);
  EXPECT_NE(error_of(testing::MakeFile(schema, batch, 0, fb::Block(at, metadata_length, 24)))
                .find("does not match its block"),
            std::string::npos);
  // A block pointing at the schema message.
  EXPECT_NE(error_of(testing::MakeFile(schema, batch, 0, fb::Block(8, static_cast<int32_t>(schema.size()), 0)))
                .find("holds a schema"),
            std::string::npos);
}

}  // namespace
}  // namespace recflow::arrow_ipc
