// Encoder tests: TensorFlow's exact byte layout, round trips through the Decoder for every type, errors and stats.
#include "recflow/formats/example/encoder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/formats/example/decoder.h"
#include "recflow/formats/example/test_wire_internal.h"

namespace recflow::example {
namespace {

using ::recflow::testing::WireWriter;
using testing::BytesFeature;
using testing::Entry;
using testing::ExampleOf;
using testing::FeatureListOf;
using testing::FloatFeature;
using testing::Int64Feature;
using testing::Map;

std::shared_ptr<RecordBatch> DecodeAll(const SchemaPtr& schema, RecordType type, const std::vector<std::string>& records) {
  auto decoder = Decoder::Make(schema, type);
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  for (const std::string& r : records) {
    Status st = (*decoder)->Append(r);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  auto batch = (*decoder)->Finish();
  EXPECT_TRUE(batch.ok());
  return *batch;
}

std::vector<std::string> EncodeAll(const RecordBatch& batch, RecordType type, EncodeStats* stats = nullptr) {
  auto encoder = Encoder::Make(batch.schema(), type);
  EXPECT_TRUE(encoder.ok()) << encoder.status().ToString();
  std::vector<std::string> out(static_cast<size_t>(batch.num_rows()));
  for (int64_t i = 0; i < batch.num_rows(); ++i) {
    Status st = (*encoder)->Encode(batch, i, &out[static_cast<size_t>(i)]);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  if (stats) *stats = (*encoder)->stats();
  return out;
}

// Encodes every row and decodes the records again: the batch must come back equal.
void ExpectRoundTrip(const RecordBatch& batch, RecordType type) {
  ASSERT_TRUE(batch.ValidateFull().ok());
  auto again = DecodeAll(batch.schema(), type, EncodeAll(batch, type));
  EXPECT_TRUE(again->Equals(batch)) << "expected:\n" << batch.ToString() << "\ngot:\n" << again->ToString();
}

FieldPtr F(const char* name, DataTypePtr type, bool nullable = true) { return Field::Make(name, std::move(type), nullable); }

TEST(EncoderTest, WritesWhatTensorFlowWrites) {
  // Packed lists, map entries key-then-value in schema order, null features omitted.
  auto schema = Schema::Make({F("i", int64()), F("f", list(float32())), F("s", list(binary())), F("n", int64())});
  const std::string canonical = ExampleOf({Entry("i", Int64Feature({-7})), Entry("f", FloatFeature({1.5f, 2})),
                                           Entry("s", BytesFeature({"ab", ""}))})
                                    .bytes();
  auto batch = DecodeAll(schema, RecordType::kExample, {canonical});
  EXPECT_EQ(EncodeAll(*batch, RecordType::kExample)[0], canonical);
  // An empty list is a Feature with an empty list message; an all-null row an empty map.
  auto empty = DecodeAll(schema, RecordType::kExample, {ExampleOf({Entry("f", FloatFeature({}))}).bytes(), ""});
  auto records = EncodeAll(*empty, RecordType::kExample);
  EXPECT_EQ(records[0], ExampleOf({Entry("f", WireWriter().MessageField(2, WireWriter()))}).bytes());
  EXPECT_EQ(records[1], ExampleOf({}).bytes());
}

TEST(EncoderTest, SequenceExampleLayout) {
  auto schema = Schema::Make({F("ctx", int64()), F("steps", list(list(int64()))), F("after", list(utf8()))});
  const std::string canonical =
      WireWriter()
          .MessageField(1, Map({Entry("ctx", Int64Feature({3})), Entry("after", BytesFeature({"z"}))}))
          .MessageField(2, Map({Entry("steps", FeatureListOf({Int64Feature({1, 2}), WireWriter(),
                                                              WireWriter().MessageField(3, WireWriter())}))}))
          .bytes();
  auto batch = DecodeAll(schema, RecordType::kSequenceExample, {canonical});
  EXPECT_EQ(EncodeAll(*batch, RecordType::kSequenceExample)[0], canonical);
  ExpectRoundTrip(*batch, RecordType::kSequenceExample);
}

TEST(EncoderTest, RoundTripsEveryTypeWithNullsAndEmptyLists) {
  const std::vector<DataTypePtr> leaves = {boolean(), int8(),   int16(),   int32(),   int64(),  uint8(), uint16(),
                                           uint32(),  uint64(), float32(), float64(), binary(), utf8()};
  std::vector<FieldPtr> fields;
  for (const DataTypePtr& t : leaves) {
    fields.push_back(Field::Make("s_" + t->ToString(), t));
    fields.push_back(Field::Make("l_" + t->ToString(), list(t)));
  }
  fields.push_back(F("null", null()));
  auto schema = Schema::Make(fields);
  // Row 0: values; row 1: all missing; row 2: empty lists.
  WireWriter row0;
  WireWriter row2;
  for (const DataTypePtr& t : leaves) {
    WireWriter one;
    WireWriter many;
    if (t->is_binary_like()) {
      one = BytesFeature({"x"});
      many = BytesFeature({"", "hello", "é"});
    } else if (t->is_floating()) {
      one = FloatFeature({0.25f});
      many = FloatFeature({-1.5f, 3e38f, 0.0f});
    } else if (t->id() == TypeId::kBool) {
      one = Int64Feature({1});
      many = Int64Feature({0, 1, 1});
    } else {
      one = Int64Feature({1});
      many = Int64Feature({0, 100, 127});
    }
    WireWriter empty = many.bytes()[0] == '\x0a'   ? BytesFeature({})
                       : many.bytes()[0] == '\x12' ? FloatFeature({})
                                                   : Int64Feature({});
    row0.MessageField(1, Entry("s_" + t->ToString(), one)).MessageField(1, Entry("l_" + t->ToString(), many));
    row2.MessageField(1, Entry("l_" + t->ToString(), empty));
  }
  auto batch = DecodeAll(schema, RecordType::kExample,
                         {WireWriter().MessageField(1, row0).bytes(), "", WireWriter().MessageField(1, row2).bytes()});
  ASSERT_EQ(batch->num_rows(), 3);
  ExpectRoundTrip(*batch, RecordType::kExample);
}

TEST(EncoderTest, ExtremeIntegersAndFloats) {
  auto schema = Schema::Make({F("i", list(int64())), F("f", list(float32()))});
  const float inf = std::numeric_limits<float>::infinity();
  auto batch = DecodeAll(schema, RecordType::kExample,
                         {ExampleOf({Entry("i", Int64Feature({INT64_MIN, -1, 0, INT64_MAX})),
                                     Entry("f", FloatFeature({-0.0f, inf, -inf, std::nanf(""), 1e-45f}))})
                              .bytes()});
  ExpectRoundTrip(*batch, RecordType::kExample);
}

TEST(EncoderTest, NarrowedDoublesAreCounted) {
  Float64Builder b;
  ASSERT_TRUE(b.Append(0.5).ok());   // exact in float32
  ASSERT_TRUE(b.Append(0.1).ok());   // narrowed
  ASSERT_TRUE(b.Append(1e300).ok());  // overflows to inf: narrowed
  ASSERT_TRUE(b.Append(std::nan("")).ok());  // NaN stays NaN: not counted
  auto batch = *RecordBatch::Make(Schema::Make({F("d", float64())}), 4, {*b.Finish()});
  EncodeStats stats;
  auto records = EncodeAll(*batch, RecordType::kExample, &stats);
  EXPECT_EQ(stats.narrowed_doubles, 2);
  EXPECT_EQ(stats.records, 4);
  EXPECT_EQ(records[1], ExampleOf({Entry("d", FloatFeature({0.1f}))}).bytes());
}

TEST(EncoderTest, DoublesBeyondFloatRangeRoundLikeIeee) {
  const double max = std::numeric_limits<float>::max();
  Float64Builder b;
  ASSERT_TRUE(b.Append(max + std::ldexp(1.0, 100)).ok());  // below the halfway point: FLT_MAX
  ASSERT_TRUE(b.Append(-(max + std::ldexp(1.0, 103))).ok());  // halfway: -infinity
  auto batch = *RecordBatch::Make(Schema::Make({F("d", float64())}), 2, {*b.Finish()});
  auto records = EncodeAll(*batch, RecordType::kExample);
  EXPECT_EQ(records[0], ExampleOf({Entry("d", FloatFeature({std::numeric_limits<float>::max()}))}).bytes());
  EXPECT_EQ(records[1], ExampleOf({Entry("d", FloatFeature({-std::numeric_limits<float>::infinity()}))}).bytes());
}

TEST(EncoderTest, Errors) {
  UInt64Builder u;
  ASSERT_TRUE(u.Append(uint64_t{1} << 63).ok());
  auto batch = *RecordBatch::Make(Schema::Make({F("u", uint64())}), 1, {*u.Finish()});
  auto encoder = *Encoder::Make(batch->schema(), RecordType::kExample);
  std::string out;
  Status st = encoder->Encode(*batch, 0, &out);
  EXPECT_EQ(st.code(), StatusCode::kTypeError);
  EXPECT_EQ(st.context().field, "u");

  // A null element inside a list cannot be written.
  auto lb = *MakeBuilder(list(int64()));
  auto* lists = static_cast<ListBuilder*>(lb.get());
  ASSERT_TRUE(lists->Append().ok());
  ASSERT_TRUE(lists->value_builder()->AppendNull().ok());
  auto with_null = *RecordBatch::Make(Schema::Make({F("l", list(int64()))}), 1, {*lists->Finish()});
  EXPECT_EQ((*Encoder::Make(with_null->schema(), RecordType::kExample))->Encode(*with_null, 0, &out).code(),
            StatusCode::kDataError);

  EXPECT_EQ(Encoder::Make(Schema::Make({F("l", list(list(int64())))}), RecordType::kExample).status().code(),
            StatusCode::kTypeError);
  EXPECT_EQ(Encoder::Make(Schema::Make({F("s", struct_({F("a", int64())}))}), RecordType::kExample).status().code(),
            StatusCode::kTypeError);
  EXPECT_EQ(Encoder::Make(Schema::Make({F("\xff", int64())}), RecordType::kExample).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(EncoderTest, ByteArrayWritesTheBytesAsIs) {
  BinaryBuilder b;
  ASSERT_TRUE(b.Append(std::string_view("\x01\x02", 2)).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  auto batch = *RecordBatch::Make(Schema::Make({F("byteArray", binary())}), 2, {*b.Finish()});
  auto encoder = *Encoder::Make(batch->schema(), RecordType::kByteArray);
  std::string out = "old";
  ASSERT_TRUE(encoder->Encode(*batch, 0, &out).ok());
  EXPECT_EQ(out, std::string("\x01\x02", 2));
  EXPECT_EQ(encoder->Encode(*batch, 1, &out).code(), StatusCode::kDataError);
}

TEST(EncoderTest, SlicedBatches) {
  auto schema = Schema::Make({F("l", list(int64())), F("s", utf8())});
  auto batch = DecodeAll(
      schema, RecordType::kExample,
      {ExampleOf({Entry("l", Int64Feature({1})), Entry("s", BytesFeature({"a"}))}).bytes(),
       ExampleOf({Entry("l", Int64Feature({2, 3}))}).bytes(), ExampleOf({Entry("s", BytesFeature({"bc"}))}).bytes()});
  ExpectRoundTrip(*batch->Slice(1, 2), RecordType::kExample);
}

}  // namespace
}  // namespace recflow::example
