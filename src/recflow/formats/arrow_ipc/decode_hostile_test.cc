// Hostile input to the decoding path: byte flips in real files and in the newer-type seeds decode to valid batches or give DataErrors, never crashes.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/ipc_file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

std::string ReadPath(const std::string& path) {
  auto buffer = ReadWholeFile(path);
  return buffer.ok() ? std::string((*buffer)->view()) : std::string();
}

std::string ReadBytes(const std::string& relative) {
  return ReadPath((recflow::testing::TestdataDir() / "arrow-integration" / relative).string());
}

/// Decodes every batch of `bytes` as a stream; the first error, or OK.
Status DecodeStream(const std::string& bytes) {
  ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(Buffer::FromString(bytes), "hostile"));
  while (true) {
    ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (batch == nullptr) return Status::OK();
    RETURN_NOT_OK(batch->ValidateFull());  // what the reader returns is always valid
  }
}

/// Decodes every batch of `bytes` as a file; the first error, or OK.
Status DecodeFile(const std::string& bytes) {
  ASSIGN_OR_RETURN(auto reader, IpcFileReader::Open(Buffer::FromString(bytes), "hostile"));
  for (int i = 0; i < reader->num_batches(); ++i) {
    ASSIGN_OR_RETURN(auto batch, reader->ReadBatch(i));
    RETURN_NOT_OK(batch->ValidateFull());
  }
  return Status::OK();
}

void ExpectOkOrDataError(const Status& status, const std::string& what) {
  if (status.ok()) return;
  EXPECT_EQ(status.code(), StatusCode::kDataError) << what << ": " << status.ToString();
  EXPECT_EQ(status.context().file, "hostile") << what << ": " << status.ToString();
  EXPECT_GE(status.context().offset, 0) << what << ": " << status.ToString();
}

/// Changes 1 to 4 random bytes of `original` `rounds` times and decodes each result; returns
/// how many failed (each failure must be a located DataError).
int ChangeAndDecode(const std::string& original, bool is_file, int rounds, std::mt19937_64& rng, const std::string& what) {
  int failures = 0;
  for (int round = 0; round < rounds; ++round) {
    std::string bytes = original;
    const int changes = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < changes; ++k) {
      const size_t at = rng() % bytes.size();
      bytes[at] = static_cast<char>(rng() % 3 == 0 ? 0xFF : rng());
    }
    const Status status = is_file ? DecodeFile(bytes) : DecodeStream(bytes);
    failures += !status.ok();
    ExpectOkOrDataError(status, what + " round " + std::to_string(round));
  }
  return failures;
}

TEST(ArrowIpcDecodeHostile, RandomByteChangesInRealFiles) {
  RECFLOW_REQUIRE_TESTDATA();
  const char* const cases[] = {
      "1.0.0-littleendian/generated_primitive",        "1.0.0-littleendian/generated_nested",
      "1.0.0-littleendian/generated_nested_dictionary", "1.0.0-littleendian/generated_union",
      "1.0.0-littleendian/generated_map",              "1.0.0-littleendian/generated_decimal256",
      "1.0.0-littleendian/generated_interval",         "1.0.0-littleendian/generated_nested_large_offsets",
      "2.0.0-compression/generated_lz4",               "2.0.0-compression/generated_zstd",
      "4.0.0-shareddict/generated_shared_dict",
  };
  std::mt19937_64 rng(20261123);
  int failures = 0;
  for (const char* name : cases) {
    for (const char* suffix : {".stream", ".arrow_file"}) {
      const std::string original = ReadBytes(std::string(name) + suffix);
      ASSERT_FALSE(original.empty()) << name << suffix;
      const bool is_file = std::string(suffix) == ".arrow_file";
      ASSERT_TRUE((is_file ? DecodeFile(original) : DecodeStream(original)).ok()) << name << suffix;
      failures += ChangeAndDecode(original, is_file, 1500, rng, std::string(name) + suffix);
    }
  }
  EXPECT_GT(failures, 1000);  // the changes are really seen
}

TEST(ArrowIpcDecodeHostile, RandomByteChangesInNewerTypeSeeds) {
  // Views (written by Arrow JS and by IpcWriter, plain, compressed and big-endian), list views,
  // run-end encoded columns and narrow decimals.
  const char* const seeds[] = {"views.arrows",           "views.arrow",           "decimal_narrow.arrows",
                               "newer_types.arrows",     "newer_types_lz4.arrows", "newer_types_zstd.arrow",
                               "newer_types_big_endian.arrow", "big_endian.arrow"};
  std::mt19937_64 rng(20261125);
  int failures = 0;
  for (const char* name : seeds) {
    const std::string original = ReadPath(std::string(RECFLOW_ARROW_IPC_CORPUS) + "/" + name);
    ASSERT_FALSE(original.empty()) << name;
    const bool is_file = std::string(name).ends_with(".arrow");
    ASSERT_TRUE((is_file ? DecodeFile(original) : DecodeStream(original)).ok()) << name;
    failures += ChangeAndDecode(original, is_file, 3000, rng, name);
  }
  EXPECT_GT(failures, 3000);
}

}  // namespace
}  // namespace recflow::arrow_ipc
