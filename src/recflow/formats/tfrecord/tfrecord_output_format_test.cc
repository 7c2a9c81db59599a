// Tests for TFRecord output: exact frames, errors, and round trips through RecordReader + Decoder.
#include "recflow/formats/tfrecord/tfrecord_output_format.h"

#include <gtest/gtest.h>

#include <limits>

#include "recflow/core/crc32c.h"
#include "recflow/formats/example/decoder.h"
#include "recflow/formats/output_format_test_util_internal.h"
#include "recflow/formats/tfrecord/test_util_internal.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow::tfrecord {
namespace {

using example::RecordType;
using recflow::testing::AllRows;
using recflow::testing::Column;
using recflow::testing::EncodeAll;
using recflow::testing::MakeBatch;
using recflow::testing::Strings;

std::shared_ptr<const OutputFormat> Format(const SchemaPtr& schema, RecordType type = RecordType::kExample) {
  auto format = MakeTfrecordOutputFormat(schema, type);
  EXPECT_TRUE(format.ok()) << format.status().ToString();
  return *format;
}

// Parses the frames of `bytes` and decodes them with `schema` as `type`.
Result<std::shared_ptr<RecordBatch>> Decode(const std::string& bytes, const SchemaPtr& schema, RecordType type) {
  ASSIGN_OR_RETURN(auto reader, RecordReader::FromBuffer(Buffer::FromString(bytes), "out.tfrecord", ReaderOptions::Defaults()));
  ASSIGN_OR_RETURN(auto decoder, example::Decoder::Make(schema, type));
  std::string_view record;
  while (true) {
    ASSIGN_OR_RETURN(bool more, reader->Next(&record));
    if (!more) break;
    RETURN_NOT_OK(decoder->Append(record));
  }
  return decoder->Finish();
}

std::shared_ptr<ArrayData> FloatSteps() {
  ListBuilder b(list(list(float32())), std::make_unique<ListBuilder>(list(float32()), std::make_unique<Float32Builder>()));
  auto* inner = static_cast<ListBuilder*>(b.value_builder());
  auto* values = static_cast<Float32Builder*>(inner->value_builder());
  EXPECT_TRUE(b.Append().ok());
  EXPECT_TRUE(inner->Append().ok());
  EXPECT_TRUE(values->Append(1.5f).ok());
  EXPECT_TRUE(values->Append(-2.0f).ok());
  EXPECT_TRUE(inner->Append().ok());
  EXPECT_TRUE(b.Append().ok());
  EXPECT_TRUE(b.Append().ok());
  EXPECT_TRUE(inner->Append().ok());
  EXPECT_TRUE(values->Append(0.25f).ok());
  return *b.Finish();
}

std::shared_ptr<ArrayData> IntLists() {
  ListBuilder b(list(int64()), std::make_unique<Int64Builder>());
  auto* values = static_cast<Int64Builder*>(b.value_builder());
  EXPECT_TRUE(b.Append().ok());
  EXPECT_TRUE(values->Append(std::numeric_limits<int64_t>::min()).ok());
  EXPECT_TRUE(values->Append(7).ok());
  EXPECT_TRUE(b.AppendNull().ok());
  EXPECT_TRUE(b.Append().ok());
  EXPECT_TRUE(values->Append(std::numeric_limits<int64_t>::max()).ok());
  return *b.Finish();
}

TEST(TfrecordOutputFormatTest, ExactBytes) {
  auto batch = MakeBatch({Field::Make("x", int64(), false)}, {Column<int64_t>({1, 300})});
  auto format = Format(batch->schema());
  EXPECT_EQ(format->name(), "tfrecord");
  EXPECT_EQ(format->suffix(), ".tfrecord");
  EXPECT_EQ(format->FileHeader(), "");
  auto out = EncodeAll(*format, *batch);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  // Example{features{feature{key: "x" value{int64_list{value: v}}}}}, v as a packed varint.
  const std::string one("\x0a\x0c\x0a\x0a\x0a\x01x\x12\x05\x1a\x03\x0a\x01\x01", 14);
  const std::string three_hundred("\x0a\x0d\x0a\x0b\x0a\x01x\x12\x06\x1a\x04\x0a\x02\xac\x02", 15);
  const auto frame = [](const std::string& data) {
    std::string length(8, '\0');
    length[0] = static_cast<char>(data.size());
    const auto masked = [](const std::string& s) {
      const uint32_t crc = Crc32c(reinterpret_cast<const uint8_t*>(s.data()), s.size());
      const uint32_t m = ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
      return std::string{static_cast<char>(m), static_cast<char>(m >> 8), static_cast<char>(m >> 16),
                         static_cast<char>(m >> 24)};
    };
    return length + masked(length) + data + masked(data);
  };
  recflow::testing::ExpectRecords(*out, {frame(one), frame(three_hundred)});
  // RecordWriter frames the same payloads identically.
  auto written = testing::EncodeRecords({one, three_hundred});
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(out->bytes, *written);
}

TEST(TfrecordOutputFormatTest, ExampleRoundTrip) {
  auto batch = MakeBatch({Field::Make("id", int64()), Field::Make("score", float32()), Field::Make("name", utf8()),
                          Field::Make("blob", binary()), Field::Make("ids", list(int64())), Field::Make("ok", boolean())},
                         {Column<int64_t>({std::numeric_limits<int64_t>::min(), std::nullopt, 42}),
                          Column<float>({0.1f, -0.0f, std::nullopt}), Strings({"caf\xc3\xa9", "", std::nullopt}),
                          Strings({std::string("\xff\x00", 2), std::nullopt, "b"}, binary()), IntLists(),
                          Column<bool>({true, std::nullopt, false})});
  auto out = EncodeAll(*Format(batch->schema()), *batch);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  auto back = Decode(out->bytes, batch->schema(), RecordType::kExample);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)->Equals(*batch)) << (*back)->ToString();
}

TEST(TfrecordOutputFormatTest, SequenceExampleAndBytesRoundTrip) {
  auto seq = MakeBatch({Field::Make("steps", list(list(float32()))), Field::Make("id", int64())},
                       {FloatSteps(), Column<int64_t>({1, 2, std::nullopt})});
  auto out = EncodeAll(*Format(seq->schema(), RecordType::kSequenceExample), *seq);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  auto back = Decode(out->bytes, seq->schema(), RecordType::kSequenceExample);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)->Equals(*seq)) << (*back)->ToString();

  auto raw = MakeBatch({Field::Make(std::string(example::kByteArrayColumn), binary(), false)},
                       {Strings({"", std::string("\x00\x01", 2), "payload"}, binary())});
  auto raw_out = EncodeAll(*Format(raw->schema(), RecordType::kByteArray), *raw);
  ASSERT_TRUE(raw_out.ok());
  auto records = testing::ReadAll(**RecordReader::FromBuffer(Buffer::FromString(raw_out->bytes), "raw", ReaderOptions::Defaults()));
  ASSERT_TRUE(records.ok());
  EXPECT_EQ(*records, (std::vector<std::string>{"", std::string("\x00\x01", 2), "payload"}));
}

TEST(TfrecordOutputFormatTest, RowsInAnyOrderWithRepeats) {
  auto batch = MakeBatch({Field::Make("id", int64()), Field::Make("name", utf8())},
                         {Column<int64_t>({0, 1, 2, 3}), Strings({"a", "bb", std::nullopt, "dddd"})});
  auto encoder = Format(batch->schema())->NewEncoder();
  ASSERT_TRUE(encoder.ok());
  EncodedRecords out;
  out.bytes = "head";
  out.ends = {4};
  const std::vector<int64_t> rows{3, 1, 3, 0, 2};
  ASSERT_TRUE((*encoder)->Encode(*batch, rows, &out).ok());
  std::vector<std::string> singles{"head"};
  for (int64_t row : rows) {
    EncodedRecords one;
    ASSERT_TRUE((*encoder)->Encode(*batch, std::vector<int64_t>{row}, &one).ok());
    singles.push_back(one.bytes);
  }
  recflow::testing::ExpectRecords(out, singles);
  auto back = Decode(out.bytes.substr(4), batch->schema(), RecordType::kExample);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  recflow::testing::ExpectRowsEqual(**back, *batch, rows);
}

TEST(TfrecordOutputFormatTest, NarrowedDoublesCountOnlyRowsWritten) {
  auto batch = MakeBatch({Field::Make("x", float64()), Field::Make("u", uint64())},
                         {Column<double>({0.1, 0.5, 0.3}), Column<uint64_t>({1, 2, std::numeric_limits<uint64_t>::max()})});
  auto encoder = Format(batch->schema())->NewEncoder();
  ASSERT_TRUE(encoder.ok());
  EncodedRecords out;
  ASSERT_TRUE((*encoder)->Encode(*batch, std::vector<int64_t>{0, 1, 0}, &out).ok());
  EXPECT_EQ((*encoder)->narrowed_doubles(), 2);  // 0.1 twice; 0.5 is exact in float32
  EXPECT_FALSE((*encoder)->Encode(*batch, AllRows(3), &out).ok());
  EXPECT_EQ((*encoder)->narrowed_doubles(), 2);
}

TEST(TfrecordOutputFormatTest, ErrorsNameColumnAndRowAndLeaveOutputUnchanged) {
  auto batch = MakeBatch({Field::Make("id", int64()), Field::Make("u", uint64())},
                         {Column<int64_t>({1, 2, 3}), Column<uint64_t>({1, std::numeric_limits<uint64_t>::max(), 3})});
  recflow::testing::ExpectFailureLeavesOutput(*Format(batch->schema()), *batch, 1, StatusCode::kTypeError, "u");
  auto raw = MakeBatch({Field::Make("bytes", binary())}, {Strings({"a", std::nullopt}, binary())});
  recflow::testing::ExpectFailureLeavesOutput(*Format(raw->schema(), RecordType::kByteArray), *raw, 1,
                                              StatusCode::kDataError, "bytes");
}

TEST(TfrecordOutputFormatTest, ArrowColumnsAreWrittenAsTheirFeatures) {
  // A dictionary of uint64 (its last value does not fit an Int64List) and a struct of a date.
  auto values = Column<uint64_t>({5, 6, std::numeric_limits<uint64_t>::max()});
  auto codes = ArrayData::Make(dictionary(int8(), uint64()), 4, {nullptr, recflow::testing::BufferOf<int8_t>({1, 0, 0, 2})}, 0);
  codes->dictionary = values;
  auto days = ArrayData::Make(date32(), 4, {nullptr, recflow::testing::BufferOf<int32_t>({10, 11, 12, 13})}, 0);
  const DataTypePtr when = struct_({Field::Make("day", date32())});
  auto batch = MakeBatch({Field::Make("code", codes->type), Field::Make("when", when)},
                         {codes, ArrayData::Make(when, 4, {nullptr}, 0, 0, {days})});
  const auto format = Format(batch->schema());
  // Rows in any order are converted before they are encoded; errors name the row asked for.
  auto encoder = format->NewEncoder();
  ASSERT_TRUE(encoder.ok());
  EncodedRecords out;
  ASSERT_TRUE((*encoder)->Encode(*batch, std::vector<int64_t>{2, 0, 2}, &out).ok());
  auto back = Decode(out.bytes, Schema::Make({Field::Make("code", int64()), Field::Make("when.day", int64())}),
                     RecordType::kExample);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->ToString(), "code: int64 = [5, 6, 5]\nwhen.day: int64 = [12, 10, 12]\n");
  recflow::testing::ExpectFailureLeavesOutput(*format, *batch, 3, StatusCode::kTypeError, "code");
}

TEST(TfrecordOutputFormatTest, MakeRejectsSchemasTheRecordTypeCannotHold) {
  auto nested = Schema::Make({Field::Make("steps", list(list(float32())))});
  EXPECT_EQ(MakeTfrecordOutputFormat(nested, RecordType::kExample).status().code(), StatusCode::kTypeError);
  EXPECT_TRUE(MakeTfrecordOutputFormat(nested, RecordType::kSequenceExample).ok());
  auto with_union = Schema::Make({Field::Make("p", union_(UnionMode::kSparse, {Field::Make("x", float32())}))});
  EXPECT_EQ(MakeTfrecordOutputFormat(with_union, RecordType::kExample).status().code(), StatusCode::kTypeError);
  auto two = Schema::Make({Field::Make("a", binary()), Field::Make("b", binary())});
  EXPECT_EQ(MakeTfrecordOutputFormat(two, RecordType::kByteArray).status().code(), StatusCode::kTypeError);
  EXPECT_FALSE(MakeTfrecordOutputFormat(nullptr, RecordType::kExample).ok());
}

}  // namespace
}  // namespace recflow::tfrecord
