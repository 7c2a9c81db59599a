// The writer-made fuzz seeds (LZ4, ZSTD, big-endian, dictionary deltas, Arrow's newer types, files): regenerated with RECFLOW_WRITE_FUZZ_SEEDS=1, checked to decode with their feature.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/big_endian_test_util_internal.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/formats/arrow_ipc/stream_reader.h"
#include "recflow/formats/arrow_ipc/test_messages_internal.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow::arrow_ipc {
namespace {

using recflow::testing::BufferOf;
using recflow::testing::ValidityOf;
using Compression = IpcWriteOptions::Compression;

const std::string kCorpus = RECFLOW_ARROW_IPC_CORPUS;
/// libFuzzer mutates small seeds best.
constexpr size_t kMaxSeedBytes = 4096;
constexpr int64_t kRows = 32;

/// A utf8 array of `values`.
std::shared_ptr<ArrayData> Utf8Of(const std::vector<std::string>& values) {
  std::vector<int32_t> offsets = {0};
  std::string data;
  for (const auto& v : values) {
    data += v;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  return ArrayData::Make(utf8(), static_cast<int64_t>(values.size()),
                         {nullptr, BufferOf(offsets), *Buffer::CopyOf({reinterpret_cast<const uint8_t*>(data.data()),
                                                                       data.size()})},
                         0);
}

/// Repetitive (so compressible) columns of the fixed-width, binary, list and dictionary
/// layouts, with nulls.
std::shared_ptr<RecordBatch> SeedBatch() {
  std::vector<int32_t> ids;
  std::vector<int64_t> wide;
  std::vector<double> scores;
  std::vector<std::string> names;
  std::vector<int32_t> list_offsets = {0};
  std::vector<int16_t> items;
  std::vector<int8_t> colors;
  std::string validity;
  for (int64_t i = 0; i < kRows; ++i) {
    ids.push_back(static_cast<int32_t>(i % 5));
    wide.push_back(i * 1000);
    scores.push_back(static_cast<double>(i) * 0.5);
    names.push_back("item" + std::to_string(i % 4));
    for (int64_t k = 0; k < i % 3; ++k) items.push_back(static_cast<int16_t>(k));
    list_offsets.push_back(static_cast<int32_t>(items.size()));
    colors.push_back(static_cast<int8_t>(i % 3));
    validity.push_back(i % 7 == 3 ? '0' : '1');
  }
  const int64_t nulls = static_cast<int64_t>(std::count(validity.begin(), validity.end(), '0'));
  const auto item = Field::Make("item", int16(), true);
  auto values = ArrayData::Make(int16(), static_cast<int64_t>(items.size()), {nullptr, BufferOf(items)}, 0);
  auto color = ArrayData::Make(dictionary(int8(), utf8()), kRows, {nullptr, BufferOf(colors)}, 0);
  color->dictionary = Utf8Of({"red", "green", "blue"});
  std::vector<std::shared_ptr<ArrayData>> columns = {
      ArrayData::Make(int32(), kRows, {ValidityOf(validity), BufferOf(ids)}, nulls),
      ArrayData::Make(int64(), kRows, {nullptr, BufferOf(wide)}, 0),
      ArrayData::Make(float64(), kRows, {ValidityOf(validity), BufferOf(scores)}, nulls),
      Utf8Of(names),
      ArrayData::Make(list(item), kRows, {nullptr, BufferOf(list_offsets)}, 0, 0, {values}),
      color,
  };
  auto schema = Schema::Make({Field::Make("id", int32(), true), Field::Make("wide", int64(), true),
                              Field::Make("score", float64(), true), Field::Make("name", utf8(), true),
                              Field::Make("tags", list(item), true),
                              Field::Make("color", dictionary(int8(), utf8()), true)});
  return *RecordBatch::Make(schema, kRows, std::move(columns));
}

/// Repetitive columns of Arrow's newer layouts: utf8 views (inline and in two data buffers),
/// list views (overlapping), run-end encoded strings, decimal32 and decimal64.
std::shared_ptr<RecordBatch> NewerTypesBatch() {
  using recflow::testing::ViewSpec;
  std::vector<ViewSpec> views;
  std::vector<int32_t> view_offsets, view_sizes, run_ends;
  std::vector<int32_t> small;
  std::vector<int64_t> wide;
  for (int64_t i = 0; i < kRows; ++i) {
    views.push_back(i % 3 == 0 ? ViewSpec{"short" + std::to_string(i % 4)}
                               : ViewSpec{"a longer value, " + std::to_string(i % 2), static_cast<int32_t>(i % 2), 0});
    view_offsets.push_back(static_cast<int32_t>(i % 5));
    view_sizes.push_back(static_cast<int32_t>(i % 3));
    if (i % 4 == 3) run_ends.push_back(static_cast<int32_t>(i + 1));
    small.push_back(static_cast<int32_t>(i * 125 - 999));
    wide.push_back(-i * 1'000'000'007);
  }
  const auto item = Field::Make("item", int16(), true);
  auto items = ArrayData::Make(int16(), 8, {nullptr, BufferOf<int16_t>({1, 2, 3, 4, 5, 6, 7, 8})}, 0);
  const auto runs = static_cast<int64_t>(run_ends.size());
  std::vector<std::string> run_values;
  for (int64_t r = 0; r < runs; ++r) run_values.push_back(r % 2 ? "even" : "odd");
  std::vector<std::shared_ptr<ArrayData>> columns = {
      ArrayData::Make(utf8_view(), kRows,
                      {nullptr, recflow::testing::ViewsOf(views), Buffer::FromString("a longer value, 0"),
                       Buffer::FromString("a longer value, 1")},
                      0),
      ArrayData::Make(list_view(item), kRows, {nullptr, BufferOf(view_offsets), BufferOf(view_sizes)}, 0, 0, {items}),
      ArrayData::Make(run_end_encoded(int32(), utf8()), kRows, {}, 0, 0,
                      {ArrayData::Make(int32(), runs, {nullptr, BufferOf(run_ends)}, 0), Utf8Of(run_values)}),
      ArrayData::Make(decimal(9, 2, 32), kRows, {nullptr, BufferOf(small)}, 0),
      ArrayData::Make(decimal(18, 4, 64), kRows, {nullptr, BufferOf(wide)}, 0),
  };
  std::vector<FieldPtr> fields;
  for (const char* name : {"text", "lists", "runs", "d32", "d64"}) {
    fields.push_back(Field::Make(name, columns[fields.size()]->type, true));
  }
  return *RecordBatch::Make(Schema::Make(std::move(fields)), kRows, std::move(columns));
}

/// `batches` copies of `batch` (SeedBatch by default) written by IpcWriter as a stream or file.
std::string Written(Compression compression, bool file, int batches = 1,
                    const std::shared_ptr<RecordBatch>& batch = SeedBatch()) {
  BufferOutputStream out;
  IpcWriteOptions options = IpcWriteOptions::Defaults();
  options.compression = compression;
  auto writer = file ? IpcWriter::OpenFile(&out, batch->schema(), options)
                     : IpcWriter::OpenStream(&out, batch->schema(), options);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  if (!writer.ok()) return {};
  for (int i = 0; i < batches; ++i) EXPECT_TRUE((*writer)->Write(*batch).ok());
  EXPECT_TRUE((*writer)->Finish().ok());
  return std::string(out.Finish()->view());
}

/// What a seed must exercise.
struct Seed {
  std::string name;
  std::string bytes;
  bool file = false;
  bool compressed = false;
  bool big_endian = false;
  bool delta = false;
  bool newer_types = false;  ///< views, list views, run-end encoded, decimal32/64
};

/// Every seed, freshly made. IpcWriter makes all but the dictionary deltas, which it never
/// writes; those come from the test message builders.
std::vector<Seed> MakeSeeds() {
  using testing::DictionaryMessage;
  using testing::IndicesMessage;
  const std::string dictionary = DictionaryMessage({"a", "b"}, false);
  const std::string delta = DictionaryMessage({"c"}, true);
  return {
      {"lz4.arrows", Written(Compression::kLz4Frame, false), false, true},
      {"zstd.arrows", Written(Compression::kZstd, false), false, true},
      {"lz4.arrow", Written(Compression::kLz4Frame, true, 2), true, true},
      {"zstd.arrow", Written(Compression::kZstd, true), true, true},
      {"big_endian.arrows", testing::ToBigEndian(Written(Compression::kNone, false)), false, false, true},
      {"big_endian.arrow", testing::ToBigEndianFile(Written(Compression::kNone, true)), true, false, true},
      {"newer_types.arrows", Written(Compression::kNone, false, 1, NewerTypesBatch()), false, false, false, false, true},
      {"newer_types_zstd.arrow", Written(Compression::kZstd, true, 1, NewerTypesBatch()), true, true, false, false,
       true},
      {"newer_types_lz4.arrows", Written(Compression::kLz4Frame, false, 1, NewerTypesBatch()), false, true, false,
       false, true},
      {"newer_types_big_endian.arrow", testing::ToBigEndianFile(Written(Compression::kNone, true, 1, NewerTypesBatch())),
       true, false, true, false, true},
      {"dictionary_delta.arrows",
       testing::DictionarySchemaMessage() + dictionary + IndicesMessage({1, 0}) + delta + IndicesMessage({2, 0}) +
           testing::EndOfStream(),
       false, false, false, true},
      {"dictionary_delta.arrow", testing::DictionaryFile({dictionary, delta}, {IndicesMessage({2, 1, 0})}), true,
       false, false, true},
  };
}

/// What the metadata of one batch message shows.
void Note(const BatchMessage& batch, Seed& seen) {
  const RecordBatchDesc& desc = batch.record_batch ? *batch.record_batch : batch.dictionary->data;
  if (batch.dictionary && batch.dictionary->is_delta) seen.delta = true;
  if (!desc.compression) return;
  for (const BufferDesc& buffer : desc.buffers) {
    int64_t prefix = -1;
    if (buffer.length >= 8) std::memcpy(&prefix, batch.message.body->data() + buffer.offset, 8);
    if (prefix != -1) seen.compressed = true;  // a really compressed buffer, not one stored as is
  }
}

/// True when `schema` has a column of each of Arrow's newer layouts.
bool HasNewerTypes(const SchemaDesc& schema) {
  std::vector<TypeId> ids;
  for (const FieldDesc& field : schema.fields) ids.push_back(field.type.id);
  const auto has = [&ids](TypeId id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
  bool narrow_decimal = false;
  for (const FieldDesc& field : schema.fields) {
    narrow_decimal |= field.type.id == TypeId::kDecimal && field.type.bit_width < 128;
  }
  return has(TypeId::kUtf8View) && has(TypeId::kListView) && has(TypeId::kRunEndEncoded) && narrow_decimal;
}

/// Reads `bytes` as `expected` says (metadata walk and full decoding) and reports what it saw.
Result<Seed> Inspect(const Seed& expected, const std::string& bytes) {
  Seed seen;
  auto data = Buffer::FromString(bytes);
  if (expected.file) {
    ASSIGN_OR_RETURN(auto file, FileReader::Open(data, expected.name));
    seen.big_endian = file->schema().endianness == Endianness::kBig;
    seen.newer_types = HasNewerTypes(file->schema());
    for (int i = 0; i < file->num_dictionaries(); ++i) {
      ASSIGN_OR_RETURN(BatchMessage batch, file->ReadDictionary(i));
      Note(batch, seen);
    }
    for (int i = 0; i < file->num_record_batches(); ++i) {
      ASSIGN_OR_RETURN(BatchMessage batch, file->ReadRecordBatch(i));
      Note(batch, seen);
    }
    ASSIGN_OR_RETURN(auto reader, IpcFileReader::Open(data, expected.name));
    for (int i = 0; i < reader->num_batches(); ++i) {
      ASSIGN_OR_RETURN(auto batch, reader->ReadBatch(i));
      RETURN_NOT_OK(batch->ValidateFull());
    }
    return seen;
  }
  ASSIGN_OR_RETURN(auto messages, StreamReader::Open(data, expected.name));
  seen.big_endian = messages->schema().endianness == Endianness::kBig;
  seen.newer_types = HasNewerTypes(messages->schema());
  while (true) {
    ASSIGN_OR_RETURN(auto batch, messages->Next());
    if (!batch) break;
    Note(*batch, seen);
  }
  ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(data, expected.name));
  while (true) {
    ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (batch == nullptr) return seen;
    RETURN_NOT_OK(batch->ValidateFull());
  }
}

TEST(ArrowIpcFuzzSeeds, CheckedInSeedsDecodeAndExerciseTheirFeature) {
  const bool write = std::getenv("RECFLOW_WRITE_FUZZ_SEEDS") != nullptr;
  for (const Seed& seed : MakeSeeds()) {
    SCOPED_TRACE(seed.name);
    const std::string path = kCorpus + "/" + seed.name;
    if (write) {
      std::ofstream(path, std::ios::binary).write(seed.bytes.data(), static_cast<std::streamsize>(seed.bytes.size()));
    }
    // The fresh bytes and the checked-in ones both qualify (the writer may have changed since).
    auto checked_in = ReadWholeFile(path);
    ASSERT_TRUE(checked_in.ok()) << checked_in.status().ToString() << " (regenerate with RECFLOW_WRITE_FUZZ_SEEDS=1)";
    for (const std::string& bytes : {seed.bytes, std::string((*checked_in)->view())}) {
      EXPECT_LT(bytes.size(), kMaxSeedBytes);
      auto seen = Inspect(seed, bytes);
      ASSERT_TRUE(seen.ok()) << seen.status().ToString();
      EXPECT_EQ(seen->compressed, seed.compressed);
      EXPECT_EQ(seen->big_endian, seed.big_endian);
      EXPECT_EQ(seen->delta, seed.delta);
      EXPECT_EQ(seen->newer_types, seed.newer_types);
    }
  }
}

}  // namespace
}  // namespace recflow::arrow_ipc
