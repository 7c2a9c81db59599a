// Tests of IpcWriter: its streams and files parse (our metadata layer) and Apache Arrow JS reads their values.
#include "recflow/formats/arrow_ipc/ipc_writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include <simdjson.h>

#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/stream_reader.h"
#include "recflow/testing/sample_arrays.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

using recflow::testing::SampleArrays;

std::shared_ptr<RecordBatch> OneColumn(const std::string& name, std::shared_ptr<ArrayData> data) {
  auto schema = Schema::Make({Field::Make(name, data->type, true)});
  const int64_t rows = data->length;
  return *RecordBatch::Make(schema, rows, {std::move(data)});
}

/// Writes `batches` (one schema) as a stream or file at `path`.
void WriteIpc(const std::string& path, const std::vector<std::shared_ptr<RecordBatch>>& batches, bool file,
              IpcWriteOptions options = IpcWriteOptions::Defaults()) {
  auto out = FileOutputStream::Open(path);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  auto writer = file ? IpcWriter::OpenFile(out->get(), batches[0]->schema(), options)
                     : IpcWriter::OpenStream(out->get(), batches[0]->schema(), options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  for (const auto& batch : batches) ASSERT_TRUE((*writer)->Write(*batch).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  ASSERT_TRUE((*out)->Close().ok());
}

/// Record batch row counts of a stream, read back with the metadata layer (every header
/// checked against the schema).
std::vector<int64_t> StreamBatchLengths(const std::string& path, int* dictionaries) {
  std::vector<int64_t> lengths;
  auto reader = StreamReader::OpenFile(path);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return lengths;
  *dictionaries = 0;
  while (true) {
    auto next = (*reader)->Next();
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !next->has_value()) break;
    if ((*next)->record_batch) lengths.push_back((*next)->record_batch->length);
    if ((*next)->dictionary) ++*dictionaries;
  }
  return lengths;
}

TEST(IpcWriterTest, EveryTypeWritesStreamsAndFilesOurReaderAccepts) {
  recflow::testing::ScratchDir dir;
  for (const auto& [name, data] : SampleArrays()) {
    SCOPED_TRACE(name);
    const auto batch = OneColumn(name, data);
    for (const auto compression : {IpcWriteOptions::Compression::kNone, IpcWriteOptions::Compression::kLz4Frame,
                                    IpcWriteOptions::Compression::kZstd}) {
      IpcWriteOptions options;
      options.compression = compression;
      const std::string stream = dir.File(name + ".arrows");
      WriteIpc(stream, {batch, batch}, false, options);
      int dictionaries = 0;
      EXPECT_EQ(StreamBatchLengths(stream, &dictionaries), (std::vector<int64_t>{data->length, data->length}));
      EXPECT_EQ(dictionaries, name == "dictionary" ? 1 : 0);  // the same dictionary is written once

      const std::string file = dir.File(name + ".arrow");
      WriteIpc(file, {batch, batch}, true, options);
      auto reader = FileReader::OpenFile(file);
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      EXPECT_EQ((*reader)->num_record_batches(), 2);
      EXPECT_EQ((*reader)->num_dictionaries(), name == "dictionary" ? 1 : 0);
      for (int i = 0; i < 2; ++i) {
        auto message = (*reader)->ReadRecordBatch(i);
        ASSERT_TRUE(message.ok()) << message.status().ToString();
        EXPECT_EQ(message->record_batch->length, data->length);
      }
    }
  }
}

TEST(IpcWriterTest, RefusesOtherSchemasAndChangedDictionariesInFiles) {
  recflow::testing::ScratchDir dir;
  auto out = FileOutputStream::Open(dir.File("x.arrow"));
  ASSERT_TRUE(out.ok());
  const auto samples = SampleArrays();
  std::map<std::string, std::shared_ptr<ArrayData>> by_name(samples.begin(), samples.end());
  auto dict_batch = OneColumn("d", by_name["dictionary"]);
  auto writer = IpcWriter::OpenFile(out->get(), dict_batch->schema(), IpcWriteOptions::Defaults());
  ASSERT_TRUE(writer.ok());
  EXPECT_EQ((*writer)->Write(*OneColumn("d", by_name["int8"])).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE((*writer)->Write(*dict_batch).ok());
  auto other = std::make_shared<ArrayData>(*by_name["dictionary"]);
  other->dictionary = ArrayData::Make(utf8(), 3, {nullptr, recflow::testing::BufferOf<int32_t>({0, 1, 2, 3}),
                                                  Buffer::FromString("xyz")}, 0);
  EXPECT_EQ((*writer)->Write(*OneColumn("d", other)).code(), StatusCode::kInvalidArgument);
  IpcWriteOptions bad;
  bad.compression = IpcWriteOptions::Compression::kZstd;
  bad.level = 99;
  EXPECT_FALSE(bad.Validate().ok());
  EXPECT_EQ(ParseIpcCompression("zstd").ValueOrDie(), IpcWriteOptions::Compression::kZstd);
  EXPECT_FALSE(ParseIpcCompression("gzip").ok());
}

/// Runs the Apache Arrow JS reader on `path`; its JSON output, or "" when node is unavailable.
std::string ReadWithArrowJs(const std::string& path) {
  const std::string command = std::string("node ") + RECFLOW_NODE_TESTS "/arrow_read.mjs '" + path + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
  const int status = pclose(pipe);
  EXPECT_EQ(status, 0) << out;
  return out;
}

TEST(IpcWriterTest, ApacheArrowJsReadsTheValues) {
  if (std::system("node --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "node is not installed";
  recflow::testing::ScratchDir dir;
  // What Arrow JS gives for each sample (its own renderings: bigints as strings, dates as ms).
  const std::map<std::string, std::string> expected = {
      {"bool", R"([false,true,null])"},
      {"int8", R"([-128,127])"},
      {"uint64", R"(["0","18446744073709551615"])"},
      {"float16", R"([1,-2])"},
      {"float64", R"([null,2.5])"},
      {"date32", R"([1555200000000,-86400000])"},
      {"utf8", R"(["cat",null,"bird"])"},
      {"utf8_sliced", R"([null,"bird"])"},
      {"fixed_size_binary", R"([[97,98],null])"},
      {"list", R"([[1,-2],null,[3,4]])"},
      {"fixed_size_list", R"([[1,-2],[3,4]])"},
      {"struct", R"([null,{"s":null,"i":-2},{"s":"bird","i":3}])"},
      {"sparse_union", R"([1,null,"bird"])"},
      {"dense_union", R"(["bird",4,"cat"])"},
      {"dictionary", R"(["c","a",null])"},
      // Arrow JS gives decimals as their little-endian 32-bit words: -1250; null, -4000001.
      {"decimal32", R"([[4294966046],[7]])"},
      {"decimal64", R"([null,[4290967295,4294967295]])"},
      {"binary_view", R"([[115,104,111,114,116],[108,111,110,103,101,114,32,116,104,97,110,32,116,119,101,108,118,101,)"
                      R"(32,98,121,116,101,115],null,[97,110,111,116,104,101,114,32,108,111,110,103,32,118,97,108,117,101]])"},
      {"utf8_view", R"(["short","longer than twelve bytes",null,"another long value"])"},
      {"utf8_view_sliced", R"(["longer than twelve bytes",null,"another long value"])"},
  };
  // Arrow JS 21 has no reader for these (its enum stops at Utf8View); our own reader reads them
  // back in the tests above and in interop_newer_types_test.
  const std::set<std::string> js_lacks = {"list_view", "large_list_view", "run_end_encoded", "run_end_encoded_sliced",
                                          "run_end_encoded_int16"};
  simdjson::dom::parser parser;
  for (const auto& [name, data] : SampleArrays()) {
    SCOPED_TRACE(name);
    if (js_lacks.contains(name)) continue;
    for (const bool file : {false, true}) {
      const std::string path = dir.File(name + (file ? ".arrow" : ".arrows"));
      WriteIpc(path, {OneColumn(name, data)}, file);
      const std::string json = ReadWithArrowJs(path);
      simdjson::dom::element doc;
      ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
      int64_t rows = -1;
      std::string_view field_name;
      simdjson::dom::element column;
      ASSERT_EQ(doc["rows"].get(rows), simdjson::SUCCESS) << json;
      ASSERT_EQ(doc["schema"].at(0)["name"].get(field_name), simdjson::SUCCESS) << json;
      ASSERT_EQ(doc["columns"][name].get(column), simdjson::SUCCESS) << json;
      EXPECT_EQ(rows, data->length);
      EXPECT_EQ(field_name, name);
      const auto it = expected.find(name);
      if (it != expected.end()) EXPECT_EQ(simdjson::minify(column), it->second) << json;
    }
  }
}

}  // namespace
}  // namespace recflow::arrow_ipc
