// Interop with Apache Arrow JS: the seed corpus files it wrote (make_fuzz_corpus.mjs) read with the expected schemas and batches.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/stream_reader.h"

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
  };
  for (const Expected& c : cases) {
    SCOPED_TRACE(c.name);
    auto stream = StreamReader::OpenFile(kCorpus + "/" + c.name + ".arrows");
    ASSERT_TRUE(stream.ok()) << stream.status().ToString();
    EXPECT_EQ(Columns((*stream)->schema()), c.columns);
    EXPECT_EQ((*stream)->schema_message().legacy_framing, c.name == "primitive_legacy");
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
    if (c.name == "primitive_legacy") continue;  // there is no legacy file form

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

}  // namespace
}  // namespace recflow::arrow_ipc
