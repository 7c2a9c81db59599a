// Interop: every Arrow integration golden file (IPC file and stream form) against its integration JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/json_schema_test_util_internal.h"
#include "recflow/formats/arrow_ipc/stream_reader.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

namespace fs = std::filesystem;

using testing::IntegrationCases;

/// The batch messages of one form of a case, in order.
struct Walked {
  SchemaDesc schema;
  std::vector<RecordBatchDesc> batches;
  std::vector<BatchLayout> layouts;
  std::vector<DictionaryBatchDesc> dictionaries;
};

void Collect(BatchMessage batch, Walked& out) {
  if (batch.record_batch) {
    out.batches.push_back(std::move(*batch.record_batch));
    out.layouts.push_back(std::move(batch.layout));
  } else {
    out.dictionaries.push_back(std::move(*batch.dictionary));
  }
}

Result<Walked> WalkStream(std::unique_ptr<StreamReader> reader) {
  Walked out;
  out.schema = reader->schema();
  while (true) {
    ASSIGN_OR_RETURN(std::optional<BatchMessage> batch, reader->Next());
    if (!batch) break;
    Collect(std::move(*batch), out);
  }
  return out;
}

Result<Walked> WalkFile(const FileReader& reader) {
  Walked out;
  out.schema = reader.schema();
  for (int i = 0; i < reader.num_dictionaries(); ++i) {
    ASSIGN_OR_RETURN(BatchMessage batch, reader.ReadDictionary(i));
    Collect(std::move(batch), out);
  }
  for (int i = 0; i < reader.num_record_batches(); ++i) {
    ASSIGN_OR_RETURN(BatchMessage batch, reader.ReadRecordBatch(i));
    Collect(std::move(batch), out);
  }
  return out;
}

// What the integration JSON does not pin down, removed from a field before comparing:
// - metadata is a map (writers reorder it), so it is sorted;
// - writers renumber dictionary ids (Arrow C++ gives every dictionary-encoded field its own id),
//   so ids are compared separately, through the dictionaries' lengths (DictionaryLengthsAgree);
// - the names of a map's entries/key/value children are not part of the map type (the spec
//   says they "may be" entries/key/value; the 1.0.0 writer renamed them in one form).
void Normalize(FieldDesc& field, bool map_child) {
  std::sort(field.metadata.begin(), field.metadata.end());
  if (field.dictionary) field.dictionary->id = 0;
  if (map_child) field.name.clear();
  for (FieldDesc& child : field.children) Normalize(child, map_child || field.type.id == TypeId::kMap);
}

SchemaDesc Normalized(SchemaDesc schema) {
  std::sort(schema.metadata.begin(), schema.metadata.end());
  for (FieldDesc& field : schema.fields) Normalize(field, false);
  return schema;
}

// Pairs the dictionary-encoded fields of the two schemas (same position in the same tree) and
// checks that each IPC dictionary has as many values as the JSON dictionary of its field.
void ExpectDictionaryLengthsAgree(const std::vector<FieldDesc>& ipc, const std::vector<FieldDesc>& json,
                                  const std::map<int64_t, int64_t>& ipc_lengths,
                                  const std::map<int64_t, int64_t>& json_lengths, std::set<int64_t>& used) {
  ASSERT_EQ(ipc.size(), json.size());
  for (size_t i = 0; i < ipc.size(); ++i) {
    ASSERT_EQ(ipc[i].dictionary.has_value(), json[i].dictionary.has_value()) << ipc[i].name;
    if (ipc[i].dictionary) {
      const int64_t id = ipc[i].dictionary->id;
      used.insert(id);
      ASSERT_TRUE(ipc_lengths.contains(id)) << "no dictionary batch for id " << id;
      ASSERT_TRUE(json_lengths.contains(json[i].dictionary->id));
      EXPECT_EQ(ipc_lengths.at(id), json_lengths.at(json[i].dictionary->id)) << ipc[i].name;
    }
    ExpectDictionaryLengthsAgree(ipc[i].children, json[i].children, ipc_lengths, json_lengths, used);
  }
}

/// Checks one walked form against the JSON.
void ExpectMatchesJson(const Walked& walked, const testing::IntegrationJson& json, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(Normalized(walked.schema), Normalized(json.schema))
      << "ipc:\n"
      << testing::SchemaToString(walked.schema) << "json:\n"
      << testing::SchemaToString(json.schema);
  ASSERT_EQ(walked.batches.size(), json.batch_counts.size());
  for (size_t i = 0; i < walked.batches.size(); ++i) {
    const RecordBatchDesc& batch = walked.batches[i];
    EXPECT_EQ(batch.length, json.batch_counts[i]) << "batch " << i;
    ASSERT_EQ(walked.layouts[i].column_nodes.size(), json.schema.fields.size());
    for (const int64_t node : walked.layouts[i].column_nodes) {
      EXPECT_EQ(batch.nodes[node].length, json.batch_counts[i]) << "batch " << i << " node " << node;
    }
  }
  // Dictionaries: no delta batches in these cases, so each id has exactly one batch.
  std::map<int64_t, int64_t> ipc_lengths;
  for (const DictionaryBatchDesc& d : walked.dictionaries) {
    EXPECT_FALSE(d.is_delta);
    EXPECT_TRUE(ipc_lengths.emplace(d.id, d.data.length).second) << "dictionary " << d.id << " repeated";
  }
  const std::map<int64_t, int64_t> json_lengths(json.dictionaries.begin(), json.dictionaries.end());
  std::set<int64_t> used;
  ExpectDictionaryLengthsAgree(walked.schema.fields, json.schema.fields, ipc_lengths, json_lengths, used);
  EXPECT_EQ(used.size(), ipc_lengths.size()) << "a dictionary batch no field uses";
}

std::optional<CompressionCodec> ExpectedCodec(const std::string& stem) {
  if (stem.find("lz4") != std::string::npos) return CompressionCodec::kLz4Frame;
  if (stem.find("zstd") != std::string::npos) return CompressionCodec::kZstd;
  return std::nullopt;
}

TEST(ArrowIpcInterop, EveryIntegrationCase) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::vector<fs::path> cases = IntegrationCases();
  // 27 cases (1.0.0-littleendian 22, 2.0.0-compression 4, 4.0.0-shareddict 1), each as a file
  // and a stream; a silently shrunken folder must not pass.
  ASSERT_EQ(cases.size(), 27u);
  int compressed = 0;
  for (const fs::path& stem : cases) {
    SCOPED_TRACE(stem.string());
    auto json = testing::ReadIntegrationJson(stem.string() + ".json.gz");
    ASSERT_TRUE(json.ok()) << json.status().ToString();

    // Stream form, through an InputStream (chunked reads).
    auto from_stream = StreamReader::OpenFile(stem.string() + ".stream");
    ASSERT_TRUE(from_stream.ok()) << from_stream.status().ToString();
    auto stream = WalkStream(std::move(*from_stream));
    ASSERT_TRUE(stream.ok()) << stream.status().ToString();
    ExpectMatchesJson(*stream, *json, "stream");
    // Only three cases need the normalisation; the others match the JSON exactly.
    const std::set<std::string> normalised = {"generated_extension", "generated_nested_dictionary",
                                              "generated_map_non_canonical"};
    if (!normalised.contains(stem.filename().string())) {
      EXPECT_EQ(stream->schema, json->schema);
    }

    // Stream form, through a memory buffer (zero-copy slices): the same descriptors.
    auto bytes = ReadWholeFile(stem.string() + ".stream");
    ASSERT_TRUE(bytes.ok());
    auto from_buffer = StreamReader::Open(*bytes, stem.string() + ".stream");
    ASSERT_TRUE(from_buffer.ok()) << from_buffer.status().ToString();
    auto buffered = WalkStream(std::move(*from_buffer));
    ASSERT_TRUE(buffered.ok()) << buffered.status().ToString();
    EXPECT_EQ(buffered->batches, stream->batches);
    EXPECT_EQ(buffered->dictionaries, stream->dictionaries);

    // File form: footer schema and blocks.
    auto file = FileReader::OpenFile(stem.string() + ".arrow_file");
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    EXPECT_EQ((*file)->version(), MetadataVersion::kV5);
    auto walked_file = WalkFile(**file);
    ASSERT_TRUE(walked_file.ok()) << walked_file.status().ToString();
    ExpectMatchesJson(*walked_file, *json, "file");

    // The stream embedded in the file (after the 8-byte magic) agrees with the footer.
    auto file_bytes = ReadWholeFile(stem.string() + ".arrow_file");
    ASSERT_TRUE(file_bytes.ok());
    auto embedded_bytes = Buffer::Slice(*file_bytes, 8, (*file_bytes)->size() - 8);
    ASSERT_TRUE(embedded_bytes.ok());
    auto embedded_messages = MessageReader::FromBuffer(*embedded_bytes, "embedded", 8);
    ASSERT_TRUE(embedded_messages.ok());
    auto embedded_reader = StreamReader::Open(std::move(*embedded_messages));
    ASSERT_TRUE(embedded_reader.ok()) << embedded_reader.status().ToString();
    EXPECT_EQ((*embedded_reader)->schema(), (*file)->schema());

    // File and stream forms give equal descriptors (up to map child names, which the 1.0.0
    // writer kept in the file and canonicalised in the stream of map_non_canonical).
    EXPECT_EQ(Normalized(walked_file->schema), Normalized(stream->schema)) << "file:\n"
                                                   << testing::SchemaToString(walked_file->schema) << "stream:\n"
                                                   << testing::SchemaToString(stream->schema);
    EXPECT_EQ(walked_file->batches, stream->batches);
    EXPECT_EQ(walked_file->dictionaries, stream->dictionaries);

    // Compressed cases report their codec on every batch; the others report none.
    const auto codec = ExpectedCodec(stem.filename().string());
    for (const RecordBatchDesc& batch : stream->batches) EXPECT_EQ(batch.compression, codec);
    if (codec) ++compressed;
  }
  EXPECT_EQ(compressed, 4);
}

}  // namespace
}  // namespace recflow::arrow_ipc
