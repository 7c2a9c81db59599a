// Decoder tests on hand-built wire bytes: every libprotobuf parse rule and every column conversion.
#include "recflow/formats/example/decoder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "recflow/columnar/pretty_print.h"
#include "recflow/formats/example/test_wire_internal.h"

namespace recflow::example {
namespace {

using ::recflow::testing::WireType;
using ::recflow::testing::WireWriter;
using testing::BytesFeature;
using testing::Entry;
using testing::ExampleOf;
using testing::FeatureListOf;
using testing::FloatFeature;
using testing::Int64Feature;
using testing::Map;

// Decodes `records` into one batch (every Append must succeed) and renders column `col`.
std::string Decode1(const FieldPtr& field, const std::vector<std::string>& records) {
  auto decoder = Decoder::Make(Schema::Make({field}), RecordType::kExample);
  EXPECT_TRUE(decoder.ok()) << decoder.status().ToString();
  if (!decoder.ok()) return "<make failed>";
  for (const std::string& r : records) {
    Status st = (*decoder)->Append(r);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  auto batch = (*decoder)->Finish();
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  if (!batch.ok()) return "<finish failed>";
  EXPECT_TRUE((*batch)->ValidateFull().ok());
  return ArrayToString(*(*batch)->column_data(0));
}

// The status of decoding one record into a one-column schema.
Status DecodeStatus(const FieldPtr& field, std::string_view record) {
  auto decoder = Decoder::Make(Schema::Make({field}), RecordType::kExample);
  if (!decoder.ok()) return decoder.status();
  return (*decoder)->Append(record);
}

FieldPtr F(const char* name, DataTypePtr type, bool nullable = true) { return Field::Make(name, std::move(type), nullable); }

TEST(DecoderTest, ScalarsAndLists) {
  const std::string r = ExampleOf({Entry("i", Int64Feature({7})), Entry("f", FloatFeature({1.5f, 2.5f})),
                                   Entry("s", BytesFeature({"ab", "c"}))})
                            .bytes();
  EXPECT_EQ(Decode1(F("i", int64()), {r}), "[7]");
  EXPECT_EQ(Decode1(F("f", list(float32())), {r}), "[[1.5, 2.5]]");
  EXPECT_EQ(Decode1(F("s", list(utf8())), {r}), "[[\"ab\", \"c\"]]");
}

TEST(DecoderTest, PackedUnpackedAndSeveralRunsConcatenateInOrder) {
  WireWriter ints;
  ints.PackedVarints(1, {1, 2}).VarintField(1, 3).PackedVarints(1, {4}).VarintField(1, 5);
  WireWriter floats;
  floats.FloatField(1, 1.0f).PackedFloats(1, {2.0f, 3.0f}).FloatField(1, 4.0f).PackedFloats(1, {});
  const std::string r =
      ExampleOf({Entry("i", WireWriter().MessageField(3, ints)), Entry("f", WireWriter().MessageField(2, floats))})
          .bytes();
  EXPECT_EQ(Decode1(F("i", list(int64())), {r}), "[[1, 2, 3, 4, 5]]");
  EXPECT_EQ(Decode1(F("f", list(float32())), {r}), "[[1, 2, 3, 4]]");
}

TEST(DecoderTest, NegativeInt64AsTenByteVarint) {
  const WireWriter feature = Int64Feature({-1, INT64_MIN, INT64_MAX});
  EXPECT_EQ(Decode1(F("x", list(int64())), {ExampleOf({Entry("x", feature)}).bytes()}),
            "[[-1, -9223372036854775808, 9223372036854775807]]");
  // A 10th byte above 1 is accepted; its extra bits fall off as in libprotobuf.
  WireWriter values;
  values.Tag(1, WireType::kVarint).Raw("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f");
  EXPECT_EQ(Decode1(F("x", int64()), {ExampleOf({Entry("x", WireWriter().MessageField(3, values))}).bytes()}), "[-1]");
  WireWriter eleven;
  eleven.Tag(1, WireType::kVarint).Raw("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x80\x01");
  EXPECT_EQ(DecodeStatus(F("x", int64()), ExampleOf({Entry("x", WireWriter().MessageField(3, eleven))}).bytes()).code(),
            StatusCode::kDataError);
}

TEST(DecoderTest, MapEntryValueBeforeKeyAndMissingKeyOrValue) {
  const WireWriter reversed = WireWriter().MessageField(2, Int64Feature({9})).BytesField(1, "x");
  const WireWriter no_key = WireWriter().MessageField(2, Int64Feature({5}));
  const WireWriter no_value = WireWriter().BytesField(1, "y");
  const std::string r =
      WireWriter()
          .MessageField(1, WireWriter().MessageField(1, reversed).MessageField(1, no_key).MessageField(1, no_value))
          .bytes();
  EXPECT_EQ(Decode1(F("x", int64()), {r}), "[9]");
  EXPECT_EQ(Decode1(F("", int64()), {r}), "[5]");
  EXPECT_EQ(Decode1(F("y", int64()), {r}), "[null]");  // a Feature with no kind
}

TEST(DecoderTest, DuplicateKeysLastEntryWinsWholly) {
  const std::string r = ExampleOf({Entry("x", Int64Feature({1, 2})), Entry("x", FloatFeature({3}))}).bytes();
  EXPECT_EQ(Decode1(F("x", list(float32())), {r}), "[[3]]");
  // A replaced entry with an empty value (no kind) replaces too.
  const std::string r2 = ExampleOf({Entry("x", Int64Feature({1})), WireWriter().BytesField(1, "x")}).bytes();
  EXPECT_EQ(Decode1(F("x", int64()), {r2}), "[null]");
}

TEST(DecoderTest, ValueTwiceInOneEntryMerges) {
  const WireWriter entry =
      WireWriter().BytesField(1, "x").MessageField(2, Int64Feature({1})).MessageField(2, Int64Feature({2, 3}));
  EXPECT_EQ(Decode1(F("x", list(int64())), {WireWriter().MessageField(1, WireWriter().MessageField(1, entry)).bytes()}),
            "[[1, 2, 3]]");
  // Merging a Feature of another kind switches the oneof: the earlier list is dropped.
  const WireWriter switched =
      WireWriter().BytesField(1, "x").MessageField(2, Int64Feature({1})).MessageField(2, FloatFeature({2}));
  EXPECT_EQ(
      Decode1(F("x", list(float32())), {WireWriter().MessageField(1, WireWriter().MessageField(1, switched)).bytes()}),
      "[[2]]");
}

TEST(DecoderTest, OneofTwiceInOneFeature) {
  const WireWriter same = WireWriter()
                              .MessageField(3, WireWriter().PackedVarints(1, {1}))
                              .MessageField(3, WireWriter().PackedVarints(1, {2}));
  EXPECT_EQ(Decode1(F("x", list(int64())), {ExampleOf({Entry("x", same)}).bytes()}), "[[1, 2]]");
  const WireWriter other =
      WireWriter().MessageField(3, WireWriter().PackedVarints(1, {1})).MessageField(1, WireWriter().BytesField(1, "b"));
  EXPECT_EQ(Decode1(F("x", list(binary())), {ExampleOf({Entry("x", other)}).bytes()}), "[[\"b\"]]");
  const WireWriter back = WireWriter(other).MessageField(3, WireWriter().PackedVarints(1, {4}));
  EXPECT_EQ(Decode1(F("x", list(int64())), {ExampleOf({Entry("x", back)}).bytes()}), "[[4]]");
}

TEST(DecoderTest, FeaturesFieldTwiceMergesMaps) {
  const std::string r = WireWriter()
                            .MessageField(1, Map({Entry("a", Int64Feature({1})), Entry("b", Int64Feature({2}))}))
                            .MessageField(1, Map({Entry("b", Int64Feature({3}))}))
                            .bytes();
  EXPECT_EQ(Decode1(F("a", int64()), {r}), "[1]");
  EXPECT_EQ(Decode1(F("b", int64()), {r}), "[3]");
}

TEST(DecoderTest, UnknownFieldsOfEveryWireTypeAreSkipped) {
  WireWriter junk;
  junk.VarintField(9, 300).Fixed64Field(10, 1).BytesField(11, "zz").Fixed32Field(12, 5).GroupField(
      13, WireWriter().VarintField(1, 1).GroupField(2, WireWriter()));
  // Known field numbers with another wire type are unknown fields too.
  WireWriter values = WireWriter(junk).Fixed64Field(1, 0).PackedVarints(1, {8});
  WireWriter feature = WireWriter(junk).VarintField(3, 1).MessageField(3, values);
  WireWriter entry = WireWriter(junk).VarintField(1, 0).BytesField(1, "x").MessageField(2, feature).Fixed32Field(2, 0);
  WireWriter map = WireWriter(junk).VarintField(1, 1).MessageField(1, entry);
  const std::string r = WireWriter(junk).VarintField(1, 3).MessageField(1, map).Raw(junk.bytes()).bytes();
  EXPECT_EQ(Decode1(F("x", list(int64())), {r}), "[[8]]");
}

TEST(DecoderTest, MalformedWireIsDataError) {
  const FieldPtr x = F("x", int64());
  const std::string ok = ExampleOf({Entry("x", Int64Feature({1}))}).bytes();
  ASSERT_TRUE(DecodeStatus(x, ok).ok());
  for (size_t n = 0; n < ok.size(); ++n) {
    if (n == 0) continue;  // the empty record is a valid empty Example
    EXPECT_EQ(DecodeStatus(x, ok.substr(0, n)).code(), StatusCode::kDataError) << "truncated at " << n;
  }
  const std::vector<std::string> bad = {
      std::string("\x00", 1),                          // tag 0
      "\x0c",                                           // end group outside a group
      "\x0b\x14",                                       // group ended by another field number
      "\x0b",                                           // group never ended
      "\x02\x00",                                       // field number 0
      "\x0e",                                           // wire type 6
      "\x0f",                                           // wire type 7
      "\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",  // 11-byte varint
      "\x0a\x80\x80\x80\x80\x10",                       // length prefix of 6 bytes
      "\x0a\x05\x00",                                   // length beyond the record
      "\xf8\xff\xff\xff\xff\x01",                       // 6-byte tag
  };
  for (const std::string& b : bad) EXPECT_EQ(DecodeStatus(x, b).code(), StatusCode::kDataError) << b.size();
  // Packed floats must be whole.
  const WireWriter partial = WireWriter().MessageField(2, WireWriter().BytesField(1, "abcde"));
  EXPECT_EQ(DecodeStatus(F("x", list(float32())), ExampleOf({Entry("x", partial)}).bytes()).code(),
            StatusCode::kDataError);
}

TEST(DecoderTest, GroupNestingFollowsTheRecursionLimit) {
  auto nested = [](int levels) {
    std::string s;
    for (int i = 0; i < levels; ++i) s += "\x0b";  // field 1, start group
    for (int i = 0; i < levels; ++i) s += "\x0c";
    return "\x7b" + s + "\x7c";  // inside field 15 (a group) of the Example
  };
  EXPECT_TRUE(DecodeStatus(F("x", int64()), nested(99)).ok());
  EXPECT_EQ(DecodeStatus(F("x", int64()), nested(100)).code(), StatusCode::kDataError);
}

TEST(DecoderTest, InvalidFeatureNameOrMalformedUnselectedFeatureFails) {
  const FieldPtr x = F("x", int64());
  EXPECT_EQ(DecodeStatus(x, ExampleOf({Entry("\xff", Int64Feature({1}))}).bytes()).code(), StatusCode::kDataError);
  // The first key is invalid but replaced: libprotobuf validates every key it reads.
  const WireWriter two_keys = WireWriter().BytesField(1, "\xc0").BytesField(1, "x").MessageField(2, Int64Feature({1}));
  EXPECT_EQ(DecodeStatus(x, WireWriter().MessageField(1, WireWriter().MessageField(1, two_keys)).bytes()).code(),
            StatusCode::kDataError);
  const WireWriter broken =
      WireWriter().MessageField(3, WireWriter().BytesField(1, "\x80"));  // truncated packed varint
  Status st = DecodeStatus(x, ExampleOf({Entry("other", broken), Entry("x", Int64Feature({1}))}).bytes());
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_EQ(st.context().field, "other");
  // A malformed entry that a later duplicate replaces still fails the record.
  EXPECT_EQ(DecodeStatus(x, ExampleOf({Entry("x", broken), Entry("x", Int64Feature({1}))}).bytes()).code(),
            StatusCode::kDataError);
}

TEST(DecoderTest, NullsEmptyListsAndScalars) {
  const std::string missing = ExampleOf({}).bytes();
  const std::string empty = ExampleOf({Entry("x", Int64Feature({}))}).bytes();
  const std::string kindless = ExampleOf({Entry("x", WireWriter())}).bytes();
  const std::string one = ExampleOf({Entry("x", Int64Feature({4}))}).bytes();
  EXPECT_EQ(Decode1(F("x", list(int64())), {missing, empty, kindless, one}), "[null, [], null, [4]]");
  EXPECT_EQ(Decode1(F("x", int64()), {missing, empty, kindless, one}), "[null, null, null, 4]");
  Status st = DecodeStatus(F("x", int64()), ExampleOf({Entry("x", Int64Feature({1, 2}))}).bytes());
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_EQ(st.context().field, "x");
  EXPECT_EQ(DecodeStatus(F("x", int64(), false), missing).code(), StatusCode::kTypeError);
  EXPECT_EQ(Decode1(F("x", null()), {missing, one}), "[null, null]");
}

TEST(DecoderTest, Conversions) {
  const std::string ints = ExampleOf({Entry("x", Int64Feature({0, 2, -3}))}).bytes();
  const std::string floats = ExampleOf({Entry("x", FloatFeature({0.1f, -2.0f}))}).bytes();
  EXPECT_EQ(Decode1(F("x", list(boolean())), {ints}), "[[false, true, true]]");
  EXPECT_EQ(Decode1(F("x", list(int32())), {ints}), "[[0, 2, -3]]");
  EXPECT_EQ(Decode1(F("x", list(float64())), {ints}), "[[0, 2, -3]]");
  EXPECT_EQ(Decode1(F("x", list(utf8())), {ints}), "[[\"0\", \"2\", \"-3\"]]");
  EXPECT_EQ(Decode1(F("x", list(utf8())), {floats}), "[[\"0.1\", \"-2\"]]");
  EXPECT_EQ(Decode1(F("x", list(binary())), {floats}), "[[\"0.1\", \"-2\"]]");
  EXPECT_EQ(Decode1(F("x", list(float32())), {ints}), "[[0, 2, -3]]");
  // Range checks and kind mismatches are type errors naming the feature.
  const std::string big = ExampleOf({Entry("x", Int64Feature({int64_t{1} << 40}))}).bytes();
  EXPECT_EQ(DecodeStatus(F("x", int32()), big).code(), StatusCode::kTypeError);
  EXPECT_EQ(DecodeStatus(F("x", list(uint8())), ints).code(), StatusCode::kTypeError);
  const std::string bytes = ExampleOf({Entry("x", BytesFeature({"a"}))}).bytes();
  Status st = DecodeStatus(F("x", int64()), bytes);
  EXPECT_EQ(st.code(), StatusCode::kTypeError);
  EXPECT_EQ(st.context().field, "x");
  EXPECT_EQ(DecodeStatus(F("x", list(int64())), floats).code(), StatusCode::kTypeError);
  EXPECT_EQ(DecodeStatus(F("x", float32()), bytes).code(), StatusCode::kTypeError);
  // An empty list of any kind fits any list column.
  EXPECT_EQ(Decode1(F("x", list(int64())), {ExampleOf({Entry("x", BytesFeature({}))}).bytes()}), "[[]]");
  // utf8 columns reject invalid UTF-8; binary columns take anything.
  const std::string latin1 = ExampleOf({Entry("x", BytesFeature({"\xe9"}))}).bytes();
  EXPECT_EQ(DecodeStatus(F("x", utf8()), latin1).code(), StatusCode::kDataError);
  EXPECT_TRUE(DecodeStatus(F("x", binary()), latin1).ok());
}

TEST(DecoderTest, FailedAppendAddsNothing) {
  auto decoder = *Decoder::Make(Schema::Make({F("a", list(int64())), F("b", utf8())}), RecordType::kExample);
  ASSERT_TRUE(decoder->Append(ExampleOf({Entry("a", Int64Feature({1})), Entry("b", BytesFeature({"x"}))})).ok());
  Status st = decoder->Append(ExampleOf({Entry("a", Int64Feature({2, 3})), Entry("b", BytesFeature({"\xff"}))}));
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_EQ(st.context().field, "b");
  EXPECT_EQ(decoder->num_rows(), 1);
  ASSERT_TRUE(decoder->Append(ExampleOf({Entry("a", Int64Feature({4}))})).ok());
  auto batch = *decoder->Finish();
  ASSERT_TRUE(batch->ValidateFull().ok());
  EXPECT_EQ(ArrayToString(*batch->column_data(0)), "[[1], [4]]");
  EXPECT_EQ(ArrayToString(*batch->column_data(1)), "[\"x\", null]");
  EXPECT_EQ(decoder->num_rows(), 0);
}

// Feature names of 1..20 bytes that differ from each other only in their first or last byte;
// the second record has at each position the name the first had there with 'a' and 'b'
// swapped: the per-position cache (whose compare loads 8 bytes from each end of 8..16-byte
// names) never takes one for another.
TEST(DecoderTest, NamesThatDifferInOneByteFindTheirColumns) {
  std::vector<FieldPtr> fields;
  std::vector<std::string> names;
  for (size_t n = 1; n <= 20; ++n) {
    for (char c : {'a', 'b'}) {
      names.push_back(std::string(1, c) + std::string(n - 1, 'x'));
      if (n > 1) names.push_back(std::string(n - 1, 'x') + c);
    }
  }
  for (const std::string& name : names) fields.push_back(F(name.c_str(), int64()));
  auto decoder = *Decoder::Make(Schema::Make(fields), RecordType::kExample);
  auto swapped = [&names](size_t k) {
    std::string name = names[k];
    for (char& c : name) c = c == 'a' ? 'b' : c == 'b' ? 'a' : c;
    return static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  for (int pass = 0; pass < 2; ++pass) {
    WireWriter map;
    for (size_t k = 0; k < names.size(); ++k) {
      const size_t i = pass == 0 ? k : swapped(k);
      map.MessageField(1, Entry(names[i], Int64Feature({static_cast<int64_t>(i)})));
    }
    ASSERT_TRUE(decoder->Append(WireWriter().MessageField(1, map).bytes()).ok());
  }
  auto batch = *decoder->Finish();
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string v = std::to_string(i);
    EXPECT_EQ(ArrayToString(*batch->column_data(static_cast<int>(i))), "[" + v + ", " + v + "]") << names[i];
  }
}

TEST(DecoderTest, SeveralBatchesFromOneDecoder) {
  auto decoder = *Decoder::Make(Schema::Make({F("l", list(float32())), F("s", binary()), F("n", null())}),
                                RecordType::kExample);
  for (int batch = 0; batch < 3; ++batch) {
    for (int i = 0; i <= batch; ++i) {
      ASSERT_TRUE(decoder->Append(ExampleOf({Entry("l", FloatFeature({1, 2})), Entry("s", BytesFeature({"ab"}))})).ok());
    }
    auto result = *decoder->Finish();
    ASSERT_TRUE(result->ValidateFull().ok());
    EXPECT_EQ(result->num_rows(), batch + 1);
    EXPECT_EQ(ArrayToString(*result->column_data(0)->Slice(batch, 1)), "[[1, 2]]");
    EXPECT_EQ(ArrayToString(*result->column_data(1)->Slice(batch, 1)), "[\"ab\"]");
  }
}

TEST(DecoderTest, SequenceExampleWithDuplicateNameAcrossKinds) {
  const WireWriter context = Map({Entry("int_feature", Int64Feature({7})), Entry("f", FloatFeature({1, 2}))});
  const WireWriter lists =
      Map({Entry("int_feature", FeatureListOf({Int64Feature({1, 2}), WireWriter(), Int64Feature({})})),
           Entry("s", FeatureListOf({BytesFeature({"a"}), BytesFeature({})}))});
  const std::string r = WireWriter().MessageField(1, context).MessageField(2, lists).bytes();
  auto md = [](std::string_view kind) {
    return std::make_shared<KeyValueMetadata>(
        std::vector<std::pair<std::string, std::string>>{{std::string(kKindMetadataKey), std::string(kind)}});
  };
  auto schema = Schema::Make({Field::Make("int_feature", int64(), true, md(kKindContext)),
                              Field::Make("int_feature", list(list(int64())), true, md(kKindFeatureList)),
                              Field::Make("s", list(list(utf8()))),  // no metadata: a feature list by type
                              Field::Make("f", list(float32())), Field::Make("absent", list(list(int64())))});
  auto decoder = *Decoder::Make(schema, RecordType::kSequenceExample);
  ASSERT_TRUE(decoder->Append(r).ok());
  auto batch = *decoder->Finish();
  ASSERT_TRUE(batch->ValidateFull().ok());
  EXPECT_EQ(ArrayToString(*batch->column_data(0)), "[7]");
  EXPECT_EQ(ArrayToString(*batch->column_data(1)), "[[[1, 2], null, []]]");
  EXPECT_EQ(ArrayToString(*batch->column_data(2)), "[[[\"a\"], []]]");
  EXPECT_EQ(ArrayToString(*batch->column_data(3)), "[[1, 2]]");
  EXPECT_EQ(ArrayToString(*batch->column_data(4)), "[null]");
}

TEST(DecoderTest, ByteArray) {
  auto decoder = *Decoder::Make(ByteArraySchema(), RecordType::kByteArray);
  ASSERT_TRUE(decoder->Append(std::string_view("\x00\xff", 2)).ok());
  ASSERT_TRUE(decoder->Append("").ok());
  auto batch = *decoder->Finish();
  EXPECT_EQ(batch->schema()->field(0)->name(), "byteArray");
  EXPECT_EQ(batch->num_rows(), 2);
  EXPECT_EQ(batch->column_data(0)->null_count, 0);
}

TEST(DecoderTest, MakeRejectsWhatCannotBeDecoded) {
  EXPECT_EQ(Decoder::Make(Schema::Make({F("s", struct_({F("a", int64())}))}), RecordType::kExample).status().code(),
            StatusCode::kTypeError);
  EXPECT_EQ(Decoder::Make(Schema::Make({F("l", list(list(int64())))}), RecordType::kExample).status().code(),
            StatusCode::kTypeError);
  EXPECT_EQ(Decoder::Make(Schema::Make({F("a", int64()), F("a", float32())}), RecordType::kExample).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(Decoder::Make(Schema::Make({F("a", int64())}), RecordType::kByteArray).status().code(),
            StatusCode::kTypeError);
}

}  // namespace
}  // namespace recflow::example
