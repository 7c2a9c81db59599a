// Interop with Apache Arrow JS: the seed corpus files it wrote (make_fuzz_corpus.mjs) read with the expected schemas, batches and values.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/read_all_test_util_internal.h"
#include "recflow/formats/arrow_ipc/stream_reader.h"
#include "recflow/formats/jsonl/json_writer.h"
#include "recflow/formats/jsonl/row_json.h"

namespace recflow::arrow_ipc {
namespace {

const std::string kCorpus = RECFLOW_ARROW_IPC_CORPUS;

struct Expected {
  std::string name;
  std::vector<std::string> columns;  // "name:type"
  int64_t rows;
  int dictionaries;
};

std::vector<std::string> Columns(const SchemaDesc& schema) {
  std::vector<std::string> out;
  for (const FieldDesc& f : schema.fields) {
    out.push_back(f.name + ":" + TypeToString(f.type) + (f.dictionary ? "/dict" : ""));
  }
  return out;
}

TEST(ArrowIpcJsWriter, StreamsAndFilesOfArrowJs) {
  const std::vector<Expected> cases = {
      // Arrow JS dictionary-encodes the strings of tableFromArrays.
      {"primitive", {"id:int32", "score:float64", "name:utf8/dict"}, 5, 1},
      {"nested", {"tags:list", "point:struct", "flag:bool"}, 3, 0},
      {"dictionary", {"color:utf8/dict"}, 4, 1},
      {"primitive_legacy", {"id:int32", "score:float64", "name:utf8/dict"}, 5, 1},
      {"primitive_legacy_js", {"id:int32", "score:float64", "name:utf8/dict"}, 5, 1},
      {"views", {"text:utf8_view", "bytes:binary_view"}, 5, 0},
      {"decimal_narrow", {"d32:decimal32(9, 2)", "d64:decimal64(18, 3)"}, 3, 0},
  };
  for (const Expected& c : cases) {
    SCOPED_TRACE(c.name);
    auto stream = StreamReader::OpenFile(kCorpus + "/" + c.name + ".arrows");
    ASSERT_TRUE(stream.ok()) << stream.status().ToString();
    EXPECT_EQ(Columns((*stream)->schema()), c.columns);
    const bool legacy = c.name.starts_with("primitive_legacy");
    EXPECT_EQ((*stream)->schema_message().legacy_framing, legacy);
    int64_t rows = 0;
    int dictionaries = 0;
    while (true) {
      auto batch = (*stream)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (!*batch) break;
      if ((*batch)->record_batch) rows += (*batch)->record_batch->length;
      if ((*batch)->dictionary) ++dictionaries;
    }
    EXPECT_EQ(rows, c.rows);
    EXPECT_EQ(dictionaries, c.dictionaries);
    if (legacy) continue;  // there is no legacy file form

    auto file = FileReader::OpenFile(kCorpus + "/" + c.name + ".arrow");
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    EXPECT_EQ((*file)->schema(), (*stream)->schema());
    EXPECT_EQ((*file)->num_dictionaries(), c.dictionaries);
    int64_t file_rows = 0;
    for (int i = 0; i < (*file)->num_record_batches(); ++i) {
      auto batch = (*file)->ReadRecordBatch(i);
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      file_rows += batch->record_batch->length;
    }
    EXPECT_EQ(file_rows, c.rows);
  }
}

/// The rows of the decoded batches as `recflow cat` prints them, one JSON object per line.
std::string Rows(const std::vector<std::shared_ptr<RecordBatch>>& batches) {
  std::string out;
  jsonl::JsonWriter writer(&out);
  for (const auto& batch : batches) {
    const jsonl::RowJsonRenderer renderer(*batch->schema(), false);
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      EXPECT_TRUE(renderer.Render(*batch, row, &writer).ok());
      out += "\n";
    }
  }
  return out;
}

/// The decoded batches of the corpus file `name`, read as a file or a stream by its suffix.
std::vector<std::shared_ptr<RecordBatch>> Decode(const std::string& name) {
  auto bytes = ReadWholeFile(kCorpus + "/" + name);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return {};
  auto batches = testing::ReadAllBatches(*bytes, name, name.ends_with(".arrow"));
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  return batches.ok() ? *batches : std::vector<std::shared_ptr<RecordBatch>>();
}

TEST(ArrowIpcJsWriter, ViewsNarrowDecimalsAndLegacyStreamsDecodeToArrowJsValues) {
  const std::string views =
      R"({"text":"short","bytes":"\u0001\u0002"})" "\n"
      R"({"text":"a value longer than twelve bytes","bytes":null})" "\n"
      R"({"text":null,"bytes":"binary longer than 12"})" "\n"
      R"({"text":"","bytes":""})" "\n"
      R"({"text":"another long value here","bytes":{"$base64":"/w=="}})" "\n";
  EXPECT_EQ(Rows(Decode("views.arrows")), views);
  EXPECT_EQ(Rows(Decode("views.arrow")), views);
  const std::string decimals =
      R"({"d32":"-12.50","d64":"-4000.001"})" "\n"
      R"({"d32":"7.00","d64":null})" "\n"
      R"({"d32":null,"d64":"4418424.085"})" "\n";
  EXPECT_EQ(Rows(Decode("decimal_narrow.arrows")), decimals);
  EXPECT_EQ(Rows(Decode("decimal_narrow.arrow")), decimals);
  // Arrow JS's own pre-0.15 framing, the one made by hand and the current one hold the same rows.
  const std::string primitive = Rows(Decode("primitive.arrows"));
  EXPECT_EQ(std::count(primitive.begin(), primitive.end(), '\n'), 5);
  EXPECT_EQ(Rows(Decode("primitive_legacy_js.arrows")), primitive);
  EXPECT_EQ(Rows(Decode("primitive_legacy.arrows")), primitive);
}

}  // namespace
}  // namespace recflow::arrow_ipc
