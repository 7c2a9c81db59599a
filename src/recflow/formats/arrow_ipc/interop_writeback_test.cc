// Interop: every Arrow integration golden file, written back by IpcWriter (stream and file, plain, LZ4 and ZSTD) and re-read, is identical.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <tuple>
#include <string>
#include <utility>
#include <vector>

#include "recflow/columnar/equals.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/dictionary_test_util_internal.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/formats/arrow_ipc/json_schema_test_util_internal.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc {
namespace {

namespace fs = std::filesystem;

using Compression = IpcWriteOptions::Compression;

/// A schema and its batches as one reader saw them.
struct Read {
  DecodingSchema schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;
};

Result<Read> ReadStream(std::shared_ptr<Buffer> bytes, const std::string& name) {
  ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(std::move(bytes), name));
  Read out{reader->decoding_schema(), {}};
  while (true) {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, reader->Next());
    if (batch == nullptr) return out;
    out.batches.push_back(std::move(batch));
  }
}

Result<Read> ReadFile(std::shared_ptr<Buffer> bytes, const std::string& name) {
  ASSIGN_OR_RETURN(auto reader, IpcFileReader::Open(std::move(bytes), name));
  Read out{reader->decoding_schema(), {}};
  for (int i = 0; i < reader->num_batches(); ++i) {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, reader->ReadBatch(i));
    out.batches.push_back(std::move(batch));
  }
  return out;
}

/// `batches` written by IpcWriter as a stream or file, in memory.
Result<std::shared_ptr<Buffer>> WriteBack(const Read& read, bool file, Compression compression) {
  IpcWriteOptions options = IpcWriteOptions::Defaults();
  options.compression = compression;
  BufferOutputStream out;
  const SchemaPtr& schema = read.schema.converted.schema;
  std::unique_ptr<IpcWriter> writer;
  if (file) {
    ASSIGN_OR_RETURN(writer, IpcWriter::OpenFile(&out, schema, options));
  } else {
    ASSIGN_OR_RETURN(writer, IpcWriter::OpenStream(&out, schema, options));
  }
  for (const auto& batch : read.batches) RETURN_NOT_OK(writer->Write(*batch));
  RETURN_NOT_OK(writer->Finish());
  return out.Finish();
}

/// Collects the dictionary ids of `fields` depth-first, clearing them in `fields`.
void TakeDictionaryIds(std::vector<FieldDesc>& fields, std::vector<int64_t>* ids) {
  for (FieldDesc& field : fields) {
    if (field.dictionary) {
      ids->push_back(field.dictionary->id);
      field.dictionary->id = 0;
    }
    TakeDictionaryIds(field.children, ids);
  }
}

/// The IPC schemas are equal: names, types, nullability, children, custom metadata of fields
/// and schema, dictionary index types and ordering flags. recflow numbers its dictionaries
/// 0, 1, ... depth-first (Arrow may share one id between fields), so the ids must only map
/// one-to-one from ours onto theirs.
void ExpectSameDesc(SchemaDesc want, SchemaDesc got) {
  std::vector<int64_t> want_ids, got_ids;
  TakeDictionaryIds(want.fields, &want_ids);
  TakeDictionaryIds(got.fields, &got_ids);
  EXPECT_EQ(want.fields, got.fields) << "want:\n"
                                     << testing::SchemaToString(want) << "got:\n" << testing::SchemaToString(got);
  EXPECT_EQ(want.metadata, got.metadata);
  ASSERT_EQ(want_ids.size(), got_ids.size());
  std::map<int64_t, int64_t> ours_to_theirs;
  for (size_t i = 0; i < got_ids.size(); ++i) {
    EXPECT_EQ(got_ids[i], static_cast<int64_t>(i));
    EXPECT_EQ(ours_to_theirs.emplace(got_ids[i], want_ids[i]).first->second, want_ids[i]);
  }
}

void ExpectSameBatches(const Read& want, const Read& got) {
  EXPECT_TRUE(want.schema.converted.schema->Equals(*got.schema.converted.schema, /*check_metadata=*/true))
      << want.schema.converted.schema->ToString() << "\n" << got.schema.converted.schema->ToString();
  ASSERT_EQ(want.batches.size(), got.batches.size());
  for (size_t b = 0; b < want.batches.size(); ++b) {
    const RecordBatch& w = *want.batches[b];
    const RecordBatch& g = *got.batches[b];
    ASSERT_EQ(w.num_rows(), g.num_rows()) << "batch " << b;
    ASSERT_EQ(w.num_columns(), g.num_columns());
    for (int c = 0; c < w.num_columns(); ++c) {
      EXPECT_TRUE(ArrayEquals(*w.column_data(c), *g.column_data(c)))
          << "batch " << b << " column " << c << "\nwant: " << ArrayToString(*w.column_data(c))
          << "\ngot:  " << ArrayToString(*g.column_data(c));
    }
  }
}

/// One way of writing back: stream or file, and the body compression.
struct Target {
  bool file;
  Compression compression;
  const char* name;
};
constexpr Target kTargets[] = {
    {false, Compression::kNone, "stream"},    {true, Compression::kNone, "file"},
    {false, Compression::kLz4Frame, "stream+lz4"}, {true, Compression::kLz4Frame, "file+lz4"},
    {false, Compression::kZstd, "stream+zstd"},   {true, Compression::kZstd, "file+zstd"},
};

TEST(ArrowIpcInteropWriteBack, EveryGoldenFileWrittenBackAndReReadIsIdentical) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::vector<fs::path> cases = testing::IntegrationCases();
  ASSERT_EQ(cases.size(), 27u);
  int64_t written = 0;
  for (const fs::path& stem : cases) {
    for (const bool source_is_file : {false, true}) {
      const std::string path = stem.string() + (source_is_file ? ".arrow_file" : ".stream");
      SCOPED_TRACE(path);
      auto bytes = ReadWholeFile(path);
      ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
      auto source = source_is_file ? ReadFile(*bytes, path) : ReadStream(*bytes, path);
      ASSERT_TRUE(source.ok()) << source.status().ToString();
      for (const Target& target : kTargets) {
        SCOPED_TRACE(target.name);
        auto out = WriteBack(*source, target.file, target.compression);
        ASSERT_TRUE(out.ok()) << out.status().ToString();
        auto again = target.file ? ReadFile(*out, target.name) : ReadStream(*out, target.name);
        ASSERT_TRUE(again.ok()) << again.status().ToString();
        ExpectSameDesc(source->schema.desc, again->schema.desc);
        ExpectSameBatches(*source, *again);
        ++written;
      }
    }
  }
  EXPECT_EQ(written, 27 * 2 * 6);
}

/// The dictionary batches of an IPC file: (id, is_delta, length).
std::vector<std::tuple<int64_t, bool, int64_t>> FileDictionaries(const std::shared_ptr<Buffer>& bytes) {
  std::vector<std::tuple<int64_t, bool, int64_t>> out;
  auto reader = FileReader::Open(bytes, "file");
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  for (int i = 0; reader.ok() && i < (*reader)->num_dictionaries(); ++i) {
    auto message = (*reader)->ReadDictionary(i);
    EXPECT_TRUE(message.ok());
    if (message.ok()) out.emplace_back(message->dictionary->id, message->dictionary->is_delta,
                                       message->dictionary->data.length);
  }
  return out;
}

TEST(ArrowIpcInteropWriteBack, GrowingDictionariesBecomeDeltasAndComeBackWithTheSameValues) {
  const std::vector<std::shared_ptr<RecordBatch>> batches = {
      testing::DictionaryBatch({0, 1, 1}, "ab", {0, 1, 2}), testing::DictionaryBatch({2, 0}, "abc", {0, 1, 2, 3}),
      testing::DictionaryBatch({3, 2}, "abcd", {0, 1, 2, 3, 4})};
  // The source is our own stream of them, read back (deltas on the wire, applied by the reader).
  BufferOutputStream first;
  auto writer = IpcWriter::OpenStream(&first, batches[0]->schema(), IpcWriteOptions::Defaults());
  ASSERT_TRUE(writer.ok());
  for (const auto& batch : batches) ASSERT_TRUE((*writer)->Write(*batch).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  auto stream = ReadStream(first.Finish(), "stream");
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  ASSERT_EQ(stream->batches.size(), batches.size());
  for (size_t b = 0; b < batches.size(); ++b) {
    EXPECT_TRUE(ArrayEquals(*batches[b]->column_data(0), *stream->batches[b]->column_data(0)));
  }
  for (const Target& target : kTargets) {
    SCOPED_TRACE(target.name);
    auto out = WriteBack(*stream, target.file, target.compression);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    auto again = target.file ? ReadFile(*out, target.name) : ReadStream(*out, target.name);
    ASSERT_TRUE(again.ok()) << again.status().ToString();
    ExpectSameBatches(*stream, *again);
    if (target.file) {
      using D = std::tuple<int64_t, bool, int64_t>;
      EXPECT_EQ(FileDictionaries(*out), (std::vector<D>{{0, false, 2}, {0, true, 1}, {0, true, 1}}));
    }
  }
  // A dictionary that does not extend the written one: a replacement in a stream, refused in a
  // file (the IPC file format allows one non-delta DictionaryBatch per id: readers load every
  // dictionary before any record batch).
  Read replaced = *stream;
  replaced.batches.push_back(testing::DictionaryBatch({0}, "z", {0, 1}));
  auto as_stream = WriteBack(replaced, false, Compression::kNone);
  ASSERT_TRUE(as_stream.ok()) << as_stream.status().ToString();
  auto reread = ReadStream(*as_stream, "replaced");
  ASSERT_TRUE(reread.ok()) << reread.status().ToString();
  ExpectSameBatches(replaced, *reread);
  EXPECT_EQ(WriteBack(replaced, true, Compression::kNone).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::arrow_ipc
