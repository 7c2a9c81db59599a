// Decoder tests: a record that fails at any point of the one walk (after other columns were appended) leaves no trace.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recflow/columnar/pretty_print.h"
#include "recflow/formats/example/decoder.h"
#include "recflow/formats/example/test_wire_internal.h"

namespace recflow::example {
namespace {

using ::recflow::testing::WireType;
using ::recflow::testing::WireWriter;
using testing::BytesFeature;
using testing::Entry;
using testing::FeatureListOf;
using testing::FloatFeature;
using testing::Int64Feature;
using testing::Map;

// A SequenceExample schema with every column shape and the conversions that can fail.
SchemaPtr Schema() {
  return Schema::Make({Field::Make("i", int64()), Field::Make("l", list(int64())), Field::Make("f", list(float32())),
                       Field::Make("s", utf8()), Field::Make("b", boolean()), Field::Make("i8", list(int8())),
                       Field::Make("need", int64(), /*nullable=*/false), Field::Make("n", null()),
                       Field::Make("fl", list(list(int64()))), Field::Make("fs", list(list(utf8())))});
}

std::string Record(const WireWriter& context, const WireWriter& lists) {
  return WireWriter().MessageField(1, context).MessageField(2, lists).bytes();
}

// A good record; `k` varies the values, the lengths and which nullable features are present.
std::string Good(int k) {
  WireWriter context = Map({Entry("i", Int64Feature({k})), Entry("l", Int64Feature({k, k + 1, -k})),
                            Entry("f", FloatFeature({0.5f * static_cast<float>(k)})),
                            Entry("need", Int64Feature({100 + k}))});
  if (k % 2 == 0) context.MessageField(1, Entry("s", BytesFeature({std::string(static_cast<size_t>(k), 'x')})));
  if (k % 3 != 1) context.MessageField(1, Entry("b", Int64Feature({k % 2})));
  if (k % 3 != 2) context.MessageField(1, Entry("i8", Int64Feature({k, -k})));
  const WireWriter lists =
      Map({Entry("fl", FeatureListOf({Int64Feature({k}), WireWriter(), Int64Feature({1, 2, 3})})),
           Entry("fs", FeatureListOf({BytesFeature({"a", "bc"}), BytesFeature({})}))});
  return Record(context, lists);
}

// Every feature but the last is appended before the failing one.
WireWriter Prefix() {
  return Map({Entry("i", Int64Feature({7})), Entry("l", Int64Feature({1, 2, 3, 4})), Entry("f", FloatFeature({1, 2})),
              Entry("s", BytesFeature({"hello"})), Entry("b", Int64Feature({1})), Entry("i8", Int64Feature({5}))});
}
const WireWriter kNeed = Entry("need", Int64Feature({1}));
const WireWriter kLists = Map({Entry("fl", FeatureListOf({Int64Feature({9, 9})})), Entry("fs", FeatureListOf({}))});

struct BadRecord {
  const char* what;
  std::string bytes;
  StatusCode code;
  const char* field;  // the feature the error names ("" for none)
};

std::vector<BadRecord> BadRecords() {
  // A packed int64 run whose last varint is cut: 3 values, then 0x80 with nothing after it.
  const WireWriter cut_varint = WireWriter().MessageField(3, WireWriter().BytesField(1, "\x01\x02\x03\x80"));
  WireWriter truncated_context = Prefix();
  truncated_context.Raw(std::string("\x0a\x05\x0a\x01q\x12", 6));  // an entry whose value is cut
  std::string cut_record = Good(4);
  cut_record.resize(cut_record.size() - 3);
  return {
      {"the first feature is malformed",
       Record(Map({Entry("i", WireWriter().MessageField(3, WireWriter().Raw("\x0a\x05\x01"))), kNeed}), kLists),
       StatusCode::kDataError, "i"},
      {"a truncated varint in the middle of a list",
       Record(Map({Entry("i", Int64Feature({1})), Entry("l", cut_varint), kNeed}), kLists), StatusCode::kDataError,
       "l"},
      {"a type mismatch after the other features", Record(Prefix().MessageField(1, Entry("need", FloatFeature({1}))), kLists),
       StatusCode::kTypeError, "need"},
      {"a oneof switch to a kind the column cannot hold",
       Record(Prefix().MessageField(1, Entry("need", Int64Feature({1}).MessageField(1, WireWriter().BytesField(1, "x")))),
              kLists),
       StatusCode::kTypeError, "need"},
      {"an int8 out of range after in-range values",
       Record(Map({Entry("i8", Int64Feature({1, 2, 300})), kNeed}), kLists), StatusCode::kTypeError, "i8"},
      {"a utf8 value that is not UTF-8 after a good one",
       Record(Map({Entry("s", BytesFeature({"ok", "\xff"})), kNeed}), kLists), StatusCode::kDataError, "s"},
      {"two values in a scalar column", Record(Prefix().MessageField(1, Entry("need", Int64Feature({1, 2}))), kLists),
       StatusCode::kDataError, "need"},
      {"a non-nullable column missing after every other feature", Record(Prefix(), kLists), StatusCode::kTypeError,
       "need"},
      {"a malformed map entry after the other features", Record(truncated_context, kLists), StatusCode::kDataError,
       ""},
      {"a feature list step of the wrong kind after good steps",
       Record(Prefix().MessageField(1, kNeed),
              Map({Entry("fl", FeatureListOf({Int64Feature({1}), Int64Feature({2, 3}), FloatFeature({4})}))})),
       StatusCode::kTypeError, "fl"},
      {"a malformed feature list step after good steps",
       Record(Prefix().MessageField(1, kNeed),
              Map({Entry("fs", FeatureListOf({BytesFeature({"a"}), WireWriter().Raw("\x0a\x09\x0a\x01")}))})),
       StatusCode::kDataError, "fs"},
      {"a feature list of good steps, then a bad context feature",
       WireWriter()
           .MessageField(2, Map({Entry("fl", FeatureListOf({Int64Feature({1, 2}), WireWriter()}))}))
           .MessageField(1, Prefix().MessageField(1, Entry("i", BytesFeature({"x"}))).MessageField(1, kNeed))
           .bytes(),
       StatusCode::kTypeError, "i"},
      {"a malformed feature of a null column", Record(Prefix().MessageField(1, kNeed).MessageField(
                                                          1, Entry("n", WireWriter().Raw("\x1a\x03\x0a"))),
                                                      kLists),
       StatusCode::kDataError, "n"},
      {"a good entry replaced by a bad one", Record(Prefix().MessageField(1, kNeed).MessageField(1, Entry("i", FloatFeature({1}))), kLists),
       StatusCode::kTypeError, "i"},
      {"a record cut short", cut_record, StatusCode::kDataError, ""},
  };
}

std::string Render(const RecordBatch& batch) {
  std::string out;
  for (int c = 0; c < batch.num_columns(); ++c) out += ArrayToString(*batch.column_data(c)) + "\n";
  return out;
}

TEST(DecoderRollbackTest, EveryFailurePointLeavesTheBatchOfTheGoodRecords) {
  const std::vector<BadRecord> bad = BadRecords();
  std::vector<std::string> good;
  for (int k = 0; k <= static_cast<int>(bad.size()); ++k) good.push_back(Good(k));

  auto clean = *Decoder::Make(Schema(), RecordType::kSequenceExample);
  for (const std::string& r : good) ASSERT_TRUE(clean->Append(r).ok());
  auto want = *clean->Finish();
  ASSERT_TRUE(want->ValidateFull().ok());

  // Twice: the second batch starts after Finish(), where the first record reserves first.
  auto mixed = *Decoder::Make(Schema(), RecordType::kSequenceExample);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t k = 0; k < good.size(); ++k) {
      if (k < bad.size()) {
        Status st = mixed->Append(bad[k].bytes);
        EXPECT_EQ(st.code(), bad[k].code) << bad[k].what << ": " << st.ToString();
        EXPECT_EQ(st.context().field, bad[k].field) << bad[k].what << ": " << st.ToString();
        EXPECT_EQ(mixed->num_rows(), static_cast<int64_t>(k)) << bad[k].what;
      }
      ASSERT_TRUE(mixed->Append(good[k]).ok());
    }
    auto got = *mixed->Finish();
    ASSERT_TRUE(got->ValidateFull().ok());
    EXPECT_TRUE(got->Equals(*want)) << Render(*got) << "\nwant\n" << Render(*want);
  }
}

TEST(DecoderRollbackTest, ABadEntryReplacedByAGoodOneDecodes) {
  const std::string r = Record(Prefix()
                                   .MessageField(1, kNeed)
                                   .MessageField(1, Entry("i8", Int64Feature({1000})))
                                   .MessageField(1, Entry("i", BytesFeature({"x"})))
                                   .MessageField(1, Entry("i8", Int64Feature({-3, 4})))
                                   .MessageField(1, Entry("i", Int64Feature({8}))),
                               kLists);
  auto decoder = *Decoder::Make(Schema(), RecordType::kSequenceExample);
  ASSERT_TRUE(decoder->Append(Good(1)).ok());
  Status st = decoder->Append(r);
  ASSERT_TRUE(st.ok()) << st.ToString();
  auto batch = *decoder->Finish();
  ASSERT_TRUE(batch->ValidateFull().ok());
  EXPECT_EQ(ArrayToString(*batch->column_data(0)), "[1, 8]");
  EXPECT_EQ(ArrayToString(*batch->column_data(5)), "[[1, -1], [-3, 4]]");
}

}  // namespace
}  // namespace recflow::example
