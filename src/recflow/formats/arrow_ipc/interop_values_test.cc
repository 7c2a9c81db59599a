// Interop: the decoded batches of every Arrow integration golden file (file and stream) equal the values of its JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "recflow/columnar/equals.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/ipc_file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/json_schema_test_util_internal.h"
#include "recflow/formats/arrow_ipc/json_values_test_util_internal.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

namespace fs = std::filesystem;

using testing::IntegrationCases;

Result<std::vector<std::shared_ptr<RecordBatch>>> ReadStream(IpcStreamReader& reader) {
  std::vector<std::shared_ptr<RecordBatch>> out;
  while (true) {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, reader.Next());
    if (batch == nullptr) return out;
    out.push_back(std::move(batch));
  }
}

/// Every batch of `got` equals the JSON's batches read with the same schema.
void ExpectEqualsJson(const std::vector<std::shared_ptr<RecordBatch>>& got, const SchemaPtr& schema,
                      const std::string& json_path, const std::string& what) {
  SCOPED_TRACE(what);
  auto expected = testing::ReadIntegrationJsonBatches(json_path, schema);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  ASSERT_EQ(got.size(), expected->size());
  for (size_t b = 0; b < got.size(); ++b) {
    const RecordBatch& want = *(*expected)[b];
    ASSERT_EQ(got[b]->num_rows(), want.num_rows()) << "batch " << b;
    ASSERT_EQ(got[b]->num_columns(), want.num_columns());
    for (int c = 0; c < want.num_columns(); ++c) {
      EXPECT_TRUE(ArrayEquals(*got[b]->column_data(c), *want.column_data(c)))
          << "batch " << b << " column " << schema->field(c)->ToString() << "\nipc:  "
          << ArrayToString(*got[b]->column_data(c)) << "\njson: " << ArrayToString(*want.column_data(c));
    }
  }
}

TEST(ArrowIpcInteropValues, EveryCaseEqualsItsJson) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::vector<fs::path> cases = IntegrationCases();
  ASSERT_EQ(cases.size(), 27u);
  int64_t batches = 0;
  for (const fs::path& stem : cases) {
    SCOPED_TRACE(stem.string());
    const std::string json = stem.string() + ".json.gz";

    // Stream through an InputStream (bodies owned by the batches).
    auto streamed = IpcStreamReader::OpenFile(stem.string() + ".stream");
    ASSERT_TRUE(streamed.ok()) << streamed.status().ToString();
    auto stream_batches = ReadStream(**streamed);
    ASSERT_TRUE(stream_batches.ok()) << stream_batches.status().ToString();
    ExpectEqualsJson(*stream_batches, (*streamed)->schema(), json, "stream");
    batches += static_cast<int64_t>(stream_batches->size());

    // Stream from memory (zero-copy).
    auto bytes = ReadWholeFile(stem.string() + ".stream");
    ASSERT_TRUE(bytes.ok());
    auto buffered = IpcStreamReader::Open(*bytes, stem.string() + ".stream");
    ASSERT_TRUE(buffered.ok()) << buffered.status().ToString();
    auto buffered_batches = ReadStream(**buffered);
    ASSERT_TRUE(buffered_batches.ok()) << buffered_batches.status().ToString();
    ExpectEqualsJson(*buffered_batches, (*buffered)->schema(), json, "stream from memory");

    // File, memory-mapped, batches read back to front.
    auto file = IpcFileReader::OpenFile(stem.string() + ".arrow_file");
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    std::vector<std::shared_ptr<RecordBatch>> file_batches((*file)->num_batches());
    for (int i = (*file)->num_batches() - 1; i >= 0; --i) {
      auto batch = (*file)->ReadBatch(i);
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      file_batches[static_cast<size_t>(i)] = *batch;
    }
    ExpectEqualsJson(file_batches, (*file)->schema(), json, "file");
    EXPECT_FALSE((*file)->ReadBatch((*file)->num_batches()).ok());
  }
  EXPECT_GT(batches, 50);
}

}  // namespace
}  // namespace recflow::arrow_ipc
