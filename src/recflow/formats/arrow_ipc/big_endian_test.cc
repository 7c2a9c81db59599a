// Big-endian bodies: every uncompressed golden stream, rewritten big-endian in test code, decodes to the same batches.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "recflow/columnar/equals.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/big_endian_test_util_internal.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

namespace fs = std::filesystem;

using testing::ToBigEndian;

std::vector<std::shared_ptr<RecordBatch>> ReadAll(const std::string& bytes, bool expect_big) {
  auto reader = IpcStreamReader::Open(Buffer::FromString(bytes), "stream");
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  EXPECT_EQ((*reader)->decoding_schema().desc.endianness, expect_big ? Endianness::kBig : Endianness::kLittle);
  std::vector<std::shared_ptr<RecordBatch>> out;
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) return out;
    out.push_back(*batch);
  }
}

TEST(ArrowIpcBigEndian, SwappedGoldenStreamsDecodeToTheSameBatches) {
  RECFLOW_REQUIRE_TESTDATA();
  const fs::path root = recflow::testing::TestdataDir() / "arrow-integration";
  int cases = 0;
  int64_t swapped_values = 0;
  for (const char* dir : {"1.0.0-littleendian", "4.0.0-shareddict"}) {
    for (const auto& entry : fs::directory_iterator(root / dir)) {
      if (entry.path().extension() != ".stream") continue;
      SCOPED_TRACE(entry.path().string());
      auto bytes = ReadWholeFile(entry.path().string());
      ASSERT_TRUE(bytes.ok());
      const std::string little((*bytes)->view());
      const std::string big = ToBigEndian(little);
      ASSERT_GT(big.size(), little.size());
      const auto expected = ReadAll(little, false);
      const auto got = ReadAll(big, true);
      ASSERT_EQ(got.size(), expected.size());
      for (size_t b = 0; b < got.size(); ++b) {
        for (int c = 0; c < got[b]->num_columns(); ++c) {
          EXPECT_TRUE(ArrayEquals(*got[b]->column_data(c), *expected[b]->column_data(c)))
              << "batch " << b << " column " << c;
        }
        swapped_values += got[b]->num_rows() * got[b]->num_columns();
      }
      ++cases;
    }
  }
  EXPECT_EQ(cases, 23);
  EXPECT_GT(swapped_values, 1000);
}

}  // namespace
}  // namespace recflow::arrow_ipc
