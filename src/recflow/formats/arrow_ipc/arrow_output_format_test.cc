// Tests of convert's Arrow output format: row size estimates (views, list views and runs too); dictionary columns (deltas, replacement, unification).
#include "recflow/formats/arrow_ipc/arrow_output_format.h"

#include <gtest/gtest.h>

#include <numeric>
#include <tuple>

#include "recflow/columnar/equals.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/columnar/take.h"
#include "recflow/formats/arrow_ipc/dictionary_test_util_internal.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"

namespace recflow::arrow_ipc {
namespace {

using testing::DictionaryBatch;

/// One data file as the dataset sink assembles it: header, each batch planned in order and
/// encoded (rows given back to front, so that they are gathered), trailer.
Result<std::shared_ptr<Buffer>> WriteOneFile(const OutputFormat& format,
                                             const std::vector<std::shared_ptr<RecordBatch>>& batches) {
  const BatchEncoding& encoding = *format.batch_encoding();
  std::unique_ptr<BatchFileState> state = encoding.NewFileState();
  std::string bytes = format.FileHeader();
  std::vector<BatchBlock> dictionaries, blocks;
  for (const auto& batch : batches) {
    ASSIGN_OR_RETURN(std::shared_ptr<const BatchPlan> plan, encoding.PlanBatch(state.get(), *batch));
    std::vector<int64_t> rows(static_cast<size_t>(batch->num_rows()));
    std::iota(rows.rbegin(), rows.rend(), 0);
    ASSIGN_OR_RETURN(EncodedBatch encoded, encoding.EncodeBatch(*batch, rows, plan.get()));
    const int64_t at = static_cast<int64_t>(bytes.size());
    for (BatchBlock block : encoded.dictionary_blocks) {
      dictionaries.push_back({block.offset + at, block.metadata_length, block.body_length});
    }
    blocks.push_back({encoded.block.offset + at, encoded.block.metadata_length, encoded.block.body_length});
    for (std::string_view piece : encoded.pieces) bytes += piece;
  }
  bytes += encoding.FileTrailer(dictionaries, blocks);
  return Buffer::FromString(std::move(bytes));
}

/// The batches a reader gets back from `bytes`.
Result<std::vector<std::shared_ptr<RecordBatch>>> ReadBack(const std::shared_ptr<Buffer>& bytes, bool file) {
  std::vector<std::shared_ptr<RecordBatch>> out;
  if (file) {
    ASSIGN_OR_RETURN(auto reader, IpcFileReader::Open(bytes, "file"));
    for (int i = 0; i < reader->num_batches(); ++i) {
      ASSIGN_OR_RETURN(auto batch, reader->ReadBatch(i));
      out.push_back(std::move(batch));
    }
    return out;
  }
  ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(bytes, "stream"));
  while (true) {
    ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (batch == nullptr) return out;
    out.push_back(std::move(batch));
  }
}

/// `batch` with its rows reversed, as WriteOneFile encodes them.
std::shared_ptr<ArrayData> Reversed(const RecordBatch& batch) {
  std::vector<int64_t> rows(static_cast<size_t>(batch.num_rows()));
  std::iota(rows.rbegin(), rows.rend(), 0);
  return *Take(*batch.column_data(0), rows);
}

TEST(ArrowOutputFormatTest, DictionaryColumnsKeepTheirEncodingInStreamsAndFiles) {
  // Same dictionary twice (written once), an extension (a delta), then values in another order
  // with a new one (a replacement in a stream; unified into the file's dictionary in a file).
  const auto ab = DictionaryBatch({0, 1, 1}, "ab", {0, 1, 2});
  const auto ab_again = DictionaryBatch({1, 0}, "ab", {0, 1, 2});
  const auto abc = DictionaryBatch({2, 0, 1}, "abc", {0, 1, 2, 3});
  const auto cda = DictionaryBatch({0, 1, 2, 2}, "cda", {0, 1, 2, 3});
  const std::vector<std::shared_ptr<RecordBatch>> batches = {ab, ab_again, abc, cda, cda};
  for (const bool file : {false, true}) {
    SCOPED_TRACE(file ? "file" : "stream");
    auto format = MakeArrowOutputFormat(ab->schema(), file, IpcWriteOptions::Defaults());
    ASSERT_TRUE(format.ok()) << format.status().ToString();
    auto bytes = WriteOneFile(**format, batches);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    auto read = ReadBack(*bytes, file);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    ASSERT_EQ(read->size(), batches.size());
    for (size_t b = 0; b < batches.size(); ++b) {
      const auto want = Reversed(*batches[b]);
      EXPECT_TRUE((*read)[b]->schema()->Equals(*ab->schema()));
      EXPECT_TRUE(ArrayEquals(*(*read)[b]->column_data(0), *want))
          << "batch " << b << "\nwant: " << ArrayToString(*want)
          << "\ngot:  " << ArrayToString(*(*read)[b]->column_data(0));
    }
    if (file) {  // a, b; delta c; delta d (c and a unified with the file's values)
      auto footer = FileReader::Open(*bytes, "file");
      ASSERT_TRUE(footer.ok());
      std::vector<std::tuple<bool, int64_t>> dictionaries;
      for (int i = 0; i < (*footer)->num_dictionaries(); ++i) {
        auto message = (*footer)->ReadDictionary(i);
        ASSERT_TRUE(message.ok());
        dictionaries.emplace_back(message->dictionary->is_delta, message->dictionary->data.length);
      }
      EXPECT_EQ(dictionaries, (std::vector<std::tuple<bool, int64_t>>{{false, 2}, {true, 1}, {true, 1}}));
    }
  }
}

TEST(ArrowOutputFormatTest, FilesUnifyDictionariesOfValuesWithoutAByteKey) {
  // float64 values are matched with ArrayEquals (0.0 and -0.0 differ, NaN equals NaN).
  const DataTypePtr type = dictionary(int16(), float64());
  const auto batch = [&](const std::vector<double>& values, const std::vector<int16_t>& indices) {
    auto column = ArrayData::Make(type, static_cast<int64_t>(indices.size()),
                                  {nullptr, recflow::testing::BufferOf<int16_t>(indices)}, 0);
    column->dictionary = ArrayData::Make(float64(), static_cast<int64_t>(values.size()),
                                         {nullptr, recflow::testing::BufferOf<double>(values)}, 0);
    return *RecordBatch::Make(Schema::Make({Field::Make("f", type, true)}), column->length, {column});
  };
  const std::vector<std::shared_ptr<RecordBatch>> batches = {batch({1.5, 0.0}, {0, 1}),
                                                             batch({-0.0, 1.5, 7.0, 7.0}, {3, 0, 1, 2})};
  auto format = MakeArrowOutputFormat(batches[0]->schema(), true, IpcWriteOptions::Defaults());
  ASSERT_TRUE(format.ok());
  auto bytes = WriteOneFile(**format, batches);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto read = ReadBack(*bytes, true);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_EQ(read->size(), 2u);
  for (size_t b = 0; b < batches.size(); ++b) {
    EXPECT_TRUE(ArrayEquals(*(*read)[b]->column_data(0), *Reversed(*batches[b])))
        << ArrayToString(*(*read)[b]->column_data(0));
  }
  EXPECT_EQ((*read)[1]->column_data(0)->dictionary->length, 4);  // 1.5, 0.0, then -0.0 and 7.0
}

TEST(ArrowOutputFormatTest, FilesRefuseToUnifyOrderedDictionariesOrOverflowTheirIndices) {
  const auto ab = DictionaryBatch({0, 1}, "ab", {0, 1, 2}, /*ordered=*/true);
  const auto ba = DictionaryBatch({0, 1}, "ba", {0, 1, 2}, /*ordered=*/true);
  auto file = MakeArrowOutputFormat(ab->schema(), true, IpcWriteOptions::Defaults());
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(WriteOneFile(**file, {ab, ba}).status().code(), StatusCode::kInvalidArgument);
  auto stream = MakeArrowOutputFormat(ab->schema(), false, IpcWriteOptions::Defaults());
  ASSERT_TRUE(stream.ok());
  EXPECT_TRUE(WriteOneFile(**stream, {ab, ba}).ok());  // a stream replaces it

  // int8 indices reach 127: 100 values, then 100 others, do not fit one file's dictionary.
  std::string text_a, text_b;
  std::vector<int32_t> offsets = {0};
  for (int i = 0; i < 100; ++i) {
    const char digits[2] = {static_cast<char>('0' + i % 10), static_cast<char>('0' + i / 10)};
    text_a.append(digits, 2);
    text_b += 'x';
    text_b.append(digits, 2);
    offsets.push_back(2 * (i + 1));
  }
  std::vector<int32_t> offsets_b;
  for (int32_t o : offsets) offsets_b.push_back(o / 2 * 3);
  auto narrow = [](const std::shared_ptr<RecordBatch>& batch) {
    const DataTypePtr type = dictionary(int8(), utf8());
    auto column = ArrayData::Make(type, 1, {nullptr, recflow::testing::BufferOf<int8_t>({5})}, 0);
    column->dictionary = batch->column_data(0)->dictionary;
    return *RecordBatch::Make(Schema::Make({Field::Make("d", type, true)}), 1, {column});
  };
  const auto a = narrow(DictionaryBatch({0}, text_a, offsets));
  const auto b = narrow(DictionaryBatch({0}, text_b, offsets_b));
  auto narrow_file = MakeArrowOutputFormat(a->schema(), true, IpcWriteOptions::Defaults());
  ASSERT_TRUE(narrow_file.ok());
  auto overflow = WriteOneFile(**narrow_file, {a, b});
  EXPECT_EQ(overflow.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(overflow.status().message().find("int8"), std::string::npos) << overflow.status().ToString();
}

TEST(ArrowOutputFormatTest, EncoderMeasuresRowsThroughOffsetsAndSlices) {
  // tags: list<utf8> ["ab", "c"], [], ["defg"]; point: struct<x: int32>. A row costs 8 per list
  // or binary value plus its bytes, 1 per struct plus its fields, the width of a fixed-width value.
  using recflow::testing::BufferOf;
  auto text = ArrayData::Make(utf8(), 3, {nullptr, BufferOf<int32_t>({0, 2, 3, 7}), Buffer::FromString("abcdefg")}, 0);
  auto tags = ArrayData::Make(list(utf8()), 3, {nullptr, BufferOf<int32_t>({0, 2, 2, 3})}, 0, 0, {text});
  auto x = ArrayData::Make(int32(), 3, {nullptr, BufferOf<int32_t>({1, 2, 3})}, 0);
  const FieldPtr x_field = Field::Make("x", int32(), true);
  auto point = ArrayData::Make(struct_({x_field}), 3, {nullptr}, 0, 0, {x});
  const auto schema = Schema::Make({Field::Make("tags", tags->type, true), Field::Make("point", point->type, true)});
  auto batch = RecordBatch::Make(schema, 3, {tags, point});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  auto format = MakeArrowOutputFormat((*batch)->schema(), false, IpcWriteOptions::Defaults());
  ASSERT_TRUE(format.ok());
  auto encoder = (*format)->NewEncoder();
  ASSERT_TRUE(encoder.ok());
  const auto measure = [&](const RecordBatch& b, const std::vector<int64_t>& rows) {
    EncodedRecords out;
    EXPECT_TRUE((*encoder)->Encode(b, rows, &out).ok());
    EXPECT_TRUE(out.bytes.empty());
    return out.ends;
  };
  // Rows: 8 + 10 + 9 + 5, 8 + 5, 8 + 12 + 5.
  EXPECT_EQ(measure(**batch, {0, 1, 2}), (std::vector<int64_t>{32, 45, 70}));
  EXPECT_EQ(measure(**batch, {2, 0, 2}), (std::vector<int64_t>{25, 57, 82}));
  EXPECT_EQ(measure(*(*batch)->Slice(1, 2), {1, 0}), (std::vector<int64_t>{25, 38}));
}

TEST(ArrowOutputFormatTest, EncoderMeasuresViewsListViewsAndRuns) {
  // A view costs 16 bytes, plus its bytes when they are not inline (a null's view is not read);
  // a list view 16 plus its elements; a run-end encoded row its run's end and value.
  using recflow::testing::BufferOf;
  const std::string long_value(40, 'x');
  auto views = ArrayData::Make(utf8_view(), 3,
                               {recflow::testing::ValidityOf("110"),
                                recflow::testing::ViewsOf({{"short"}, {long_value, 0, 0}, {long_value, 7, 9}}),
                                Buffer::FromString(long_value)},
                               1);
  auto ints = ArrayData::Make(int32(), 4, {nullptr, BufferOf<int32_t>({1, 2, 3, 4})}, 0);
  auto lists = ArrayData::Make(list_view(Field::Make("item", int32())), 3,
                               {nullptr, BufferOf<int32_t>({1, 0, 0}), BufferOf<int32_t>({3, 0, 4})}, 0, 0, {ints});
  auto runs = ArrayData::Make(run_end_encoded(int16(), int64()), 3, {}, 0, 0,
                              {ArrayData::Make(int16(), 2, {nullptr, BufferOf<int16_t>({1, 3})}, 0),
                               ArrayData::Make(int64(), 2, {nullptr, BufferOf<int64_t>({5, 6})}, 0)});
  const auto schema = Schema::Make({Field::Make("v", views->type), Field::Make("l", lists->type),
                                    Field::Make("r", runs->type)});
  auto batch = RecordBatch::Make(schema, 3, {views, lists, runs});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  auto format = MakeArrowOutputFormat(schema, false, IpcWriteOptions::Defaults());
  ASSERT_TRUE(format.ok());
  auto encoder = (*format)->NewEncoder();
  ASSERT_TRUE(encoder.ok());
  EncodedRecords out;
  const std::vector<int64_t> rows = {0, 1, 2};
  ASSERT_TRUE((*encoder)->Encode(**batch, rows, &out).ok());
  // Rows: 16 + (16 + 12) + (2 + 8); (16 + 40) + 16 + 10; 16 + (16 + 16) + 10.
  EXPECT_EQ(out.ends, (std::vector<int64_t>{54, 136, 194}));
}

}  // namespace
}  // namespace recflow::arrow_ipc
