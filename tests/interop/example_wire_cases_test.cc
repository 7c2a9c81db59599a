// Differential: hand-built wire encodings that libprotobuf accepts (or rejects) but no serializer
// writes — recflow must parse every one exactly as libprotobuf does.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "example.pb.h"
#include "interop_util.h"
#include "recflow/formats/example/decoder.h"
#include "recflow/formats/example/schema_inference.h"
#include "recflow/testing/wire_writer.h"
#include "row_matcher.h"

namespace recflow::interop {
namespace {

using example::RecordType;
using ::recflow::testing::Msg;
using ::recflow::testing::WireType;
using ::recflow::testing::WireWriter;
using namespace std::string_view_literals;

// Field numbers of the tf.Example messages.
constexpr uint32_t kValue = 1;         // BytesList/FloatList/Int64List.value, FeatureList.feature
constexpr uint32_t kBytesList = 1;     // Feature
constexpr uint32_t kFloatList = 2;     // Feature
constexpr uint32_t kInt64List = 3;     // Feature
constexpr uint32_t kEntry = 1;         // Features.feature, FeatureLists.feature_list
constexpr uint32_t kKey = 1;           // map entry
constexpr uint32_t kMapValue = 2;      // map entry
constexpr uint32_t kFeatures = 1;      // Example.features, SequenceExample.context
constexpr uint32_t kFeatureLists = 2;  // SequenceExample.feature_lists

std::string Ints(std::initializer_list<int64_t> values) {
  return Msg().BytesField(kInt64List, Msg().PackedVarints(kValue, values).Take()).Take();
}
std::string Floats(std::initializer_list<float> values) {
  return Msg().BytesField(kFloatList, Msg().PackedFloats(kValue, values).Take()).Take();
}
std::string Bytes(std::initializer_list<std::string_view> values) {
  WireWriter list;
  for (std::string_view v : values) list.BytesField(kValue, v);
  return Msg().BytesField(kBytesList, list.bytes()).Take();
}
// A Feature whose `kind` list holds exactly the hand-written `list` encoding.
std::string List(uint32_t kind, const WireWriter& list) { return Msg().BytesField(kind, list.bytes()).Take(); }
// A map entry (key first, as serializers write it).
std::string Entry(std::string_view key, std::string_view value) {
  return Msg().BytesField(kKey, key).BytesField(kMapValue, value).Take();
}
// A Features / FeatureLists message of the given entries.
std::string Map(std::initializer_list<std::string_view> entries) {
  WireWriter map;
  for (std::string_view e : entries) map.BytesField(kEntry, e);
  return map.Take();
}
// An Example whose `features` field holds the encoding `features`.
std::string ExampleOf(std::string_view features) { return Msg().BytesField(kFeatures, features).Take(); }
// An Example with the one feature `key`.
std::string ExampleWith(std::string_view key, std::string_view feature) {
  return ExampleOf(Map({Entry(key, feature)}));
}

// One hand-built record and the message type it is parsed as.
struct WireCase {
  std::string name;
  std::string record;
  RecordType type = RecordType::kExample;
};

std::ostream& operator<<(std::ostream& out, const WireCase& c) { return out << c.name; }

std::vector<WireCase> ExampleCases() {
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const float kNaN = std::numeric_limits<float>::quiet_NaN();
  const float kInf = std::numeric_limits<float>::infinity();
  std::vector<WireCase> cases;
  auto add = [&cases](std::string name, std::string record) { cases.push_back({std::move(name), std::move(record)}); };

  add("empty_record", "");
  add("empty_features", ExampleOf(""));
  add("plain", ExampleOf(Map({Entry("i", Ints({1, -2, kMin})), Entry("f", Floats({1.5f, kNaN, -kInf})),
                              Entry("b", Bytes({"x", "", "\xFF\xFE"}))})));
  add("empty_lists", ExampleOf(Map({Entry("i", Ints({})), Entry("f", Floats({})), Entry("b", Bytes({}))})));
  add("kindless", ExampleOf(Map({Entry("i", ""), Entry("f", ""), Entry("b", "")})));
  add("unpacked_ints", ExampleWith("i", List(kInt64List, Msg()
                                                             .VarintField(kValue, 5)
                                                             .VarintField(kValue, static_cast<uint64_t>(-5))
                                                             .VarintField(kValue, static_cast<uint64_t>(kMin)))));
  add("unpacked_floats",
      ExampleWith(
          "f", List(kFloatList, Msg().FloatField(kValue, 0.25f).FloatField(kValue, -0.0f).FloatField(kValue, kInf))));
  add("packed_runs_ints",
      ExampleWith("i",
                  List(kInt64List,
                       Msg().PackedVarints(kValue, {1, 2}).PackedVarints(kValue, {}).PackedVarints(kValue, {3, -4}))));
  add("packed_runs_floats",
      ExampleWith("f", List(kFloatList,
                            Msg().PackedFloats(kValue, {1, 2}).PackedFloats(kValue, {}).PackedFloats(kValue, {3}))));
  add("mixed_packed_unpacked_ints", ExampleWith("i", List(kInt64List, Msg()
                                                                          .VarintField(kValue, 1)
                                                                          .PackedVarints(kValue, {2, 3})
                                                                          .VarintField(kValue, 4)
                                                                          .PackedVarints(kValue, {5}))));
  add("mixed_packed_unpacked_floats", ExampleWith("f", List(kFloatList, Msg()
                                                                            .PackedFloats(kValue, {1})
                                                                            .FloatField(kValue, 2)
                                                                            .PackedFloats(kValue, {3, 4})
                                                                            .FloatField(kValue, 5))));
  add("entry_value_before_key",
      ExampleOf(Map({Msg().BytesField(kMapValue, Ints({7})).BytesField(kKey, "i").Take(),
                     Msg().BytesField(kMapValue, Bytes({"v"})).BytesField(kKey, "b").Take()})));
  add("entry_missing_key", ExampleOf(Map({Msg().BytesField(kMapValue, Ints({7})).Take()})));
  add("entry_missing_value", ExampleOf(Map({Msg().BytesField(kKey, "i").Take(), Entry("b", Bytes({"v"}))})));
  add("entry_empty", ExampleOf(Map({"", Entry("i", Ints({1}))})));
  add("entry_key_twice",
      ExampleOf(Map({Msg().BytesField(kKey, "b").BytesField(kKey, "i").BytesField(kMapValue, Ints({3})).Take()})));
  add("entry_value_twice",
      ExampleOf(Map(
          {Msg().BytesField(kKey, "i").BytesField(kMapValue, Ints({1, 2})).BytesField(kMapValue, Ints({3})).Take()})));
  add("entry_value_twice_kinds",
      ExampleOf(Map(
          {Msg().BytesField(kKey, "f").BytesField(kMapValue, Ints({1})).BytesField(kMapValue, Floats({2})).Take()})));
  add("duplicate_keys_last_wins",
      ExampleOf(Map({Entry("i", Ints({1, 2})), Entry("b", Bytes({"x"})), Entry("i", Ints({3}))})));
  add("duplicate_keys_kind_then_kindless", ExampleOf(Map({Entry("i", Ints({1})), Entry("i", "")})));
  add("duplicate_keys_kindless_then_kind", ExampleOf(Map({Entry("i", ""), Entry("i", Ints({4}))})));
  add("duplicate_keys_other_kind_first", ExampleOf(Map({Entry("i", Floats({1.5f})), Entry("i", Ints({2}))})));
  add("duplicate_keys_other_kind_last", ExampleOf(Map({Entry("f", Floats({1.5f})), Entry("f", Ints({2}))})));
  add("feature_same_kind_twice",
      ExampleOf(Map({Entry("i", Ints({1}) + Ints({2, 3})), Entry("b", Bytes({"x"}) + Bytes({"y"}))})));
  add("feature_two_kinds_last_wins",
      ExampleOf(Map({Entry("f", Ints({1}) + Floats({2})), Entry("i", Bytes({"x"}) + Ints({5}))})));
  add("feature_kind_switch_back", ExampleOf(Map({Entry("i", Ints({1}) + Floats({2}) + Ints({3}))})));
  add("features_twice", ExampleOf(Map({Entry("i", Ints({1})), Entry("f", Floats({1}))})) +
                            ExampleOf(Map({Entry("i", Ints({2})), Entry("b", Bytes({"z"}))})));
  add("features_twice_second_empty", ExampleOf(Map({Entry("i", Ints({1}))})) + ExampleOf(""));
  {
    WireWriter ints;
    ints.UnknownFieldsOfEveryType(2).PackedVarints(kValue, {1}).UnknownFieldsOfEveryType(100).VarintField(kValue, 2);
    WireWriter floats;
    floats.UnknownFieldsOfEveryType(2).FloatField(kValue, 3).UnknownFieldsOfEveryType(1000);
    WireWriter bytes;
    bytes.UnknownFieldsOfEveryType(2).BytesField(kValue, "b1").UnknownFieldsOfEveryType(536870900);
    auto feature = [](uint32_t kind, const std::string& list) {
      return Msg().UnknownFieldsOfEveryType(4).BytesField(kind, list).UnknownFieldsOfEveryType(20).Take();
    };
    auto entry = [](std::string_view key, const std::string& value) {
      return Msg()
          .UnknownFieldsOfEveryType(3)
          .BytesField(kKey, key)
          .UnknownFieldsOfEveryType(8)
          .BytesField(kMapValue, value)
          .UnknownFieldsOfEveryType(13)
          .Take();
    };
    std::string features = Msg()
                               .UnknownFieldsOfEveryType(2)
                               .BytesField(kEntry, entry("i", feature(kInt64List, ints.bytes())))
                               .UnknownFieldsOfEveryType(7)
                               .BytesField(kEntry, entry("f", feature(kFloatList, floats.bytes())))
                               .BytesField(kEntry, entry("b", feature(kBytesList, bytes.bytes())))
                               .UnknownFieldsOfEveryType(12)
                               .Take();
    add("unknown_fields_every_level",
        Msg().UnknownFieldsOfEveryType(2).BytesField(kFeatures, features).UnknownFieldsOfEveryType(9).Take());
  }
  add("unknown_group_nested", Msg()
                                  .Tag(5, WireType::kStartGroup)
                                  .Tag(6, WireType::kStartGroup)
                                  .VarintField(1, 1)
                                  .Tag(6, WireType::kEndGroup)
                                  .Tag(5, WireType::kEndGroup)
                                  .Raw(ExampleOf(Map({Entry("i", Ints({1}))})))
                                  .Take());
  add("wrong_wire_type_example_features", Msg().VarintField(kFeatures, 3).Take());
  add("wrong_wire_type_entry",
      ExampleOf(Msg().Tag(kEntry, WireType::kFixed32).Fixed32(1).Raw(Map({Entry("i", Ints({1}))})).Take()));
  add("wrong_wire_type_key", ExampleOf(Map({Msg().VarintField(kKey, 1).BytesField(kMapValue, Ints({1})).Take()})));
  add("wrong_wire_type_map_value",
      ExampleOf(Map({Msg().BytesField(kKey, "i").Tag(kMapValue, WireType::kFixed64).Fixed64(1).Take()})));
  add("wrong_wire_type_kind", ExampleOf(Map({Entry("i", Msg().VarintField(kInt64List, 1).Take())})));
  add("wrong_wire_type_int_value",
      ExampleWith("i", List(kInt64List, Msg().Tag(kValue, WireType::kFixed64).Fixed64(9).VarintField(kValue, 1))));
  add("wrong_wire_type_float_value",
      ExampleWith("f", List(kFloatList, Msg().VarintField(kValue, 9).FloatField(kValue, 1))));
  add("wrong_wire_type_bytes_value",
      ExampleWith("b", List(kBytesList, Msg().VarintField(kValue, 9).BytesField(kValue, "ok"))));
  add("overlong_varints", ExampleWith("i", List(kInt64List, Msg()
                                                                .Tag(kValue, WireType::kVarint)
                                                                .Varint(1, 10)
                                                                .Tag(kValue, WireType::kLengthDelimited)
                                                                .Varint(3, 5)
                                                                .Varint(0, 2)
                                                                .Varint(127, 1))));
  {
    const std::string features = Map({Entry("i", Ints({1}))});
    auto with_tag = [&features](std::string_view tag) {
      return Msg().Raw(tag).Varint(features.size()).Raw(features).Take();
    };
    add("overlong_tag_2_bytes", with_tag("\x8a\x00"sv));
    add("overlong_tag_5_bytes", with_tag("\x8a\x80\x80\x80\x00"sv));
    add("overlong_tag_6_bytes", with_tag("\x8a\x80\x80\x80\x80\x00"sv));
    add("overlong_tag_in_features",
        ExampleOf(Msg().Raw("\x8a\x80\x00"sv).Varint(Entry("i", Ints({1})).size()).Raw(Entry("i", Ints({1}))).Take()));
    for (int bytes : {2, 5, 6, 10}) {
      add("overlong_length_" + std::to_string(bytes) + "_bytes",
          Msg().Tag(kFeatures, WireType::kLengthDelimited).Varint(features.size(), bytes).Raw(features).Take());
    }
  }
  add("varint_10th_byte_high_bits",
      ExampleWith(
          "i", List(kInt64List, Msg().Tag(kValue, WireType::kVarint).Raw("\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x7F"))));
  add("varint_11_bytes",
      ExampleWith("i",
                  List(kInt64List,
                       Msg().Tag(kValue, WireType::kVarint).Raw("\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x81\x00"sv))));
  add("packed_varint_truncated", ExampleWith("i", List(kInt64List, Msg().BytesField(kValue, "\x01\x80"))));
  for (size_t length : {3, 5, 7}) {
    add("packed_floats_length_" + std::to_string(length),
        ExampleWith("f", List(kFloatList, Msg().BytesField(kValue, std::string(length, '\x01')))));
  }
  add("length_beyond_end", Msg().Tag(kFeatures, WireType::kLengthDelimited).Varint(100).Raw("abc").Take());
  add("truncated_varint", Msg().Tag(7, WireType::kVarint).Raw("\x80").Take());
  add("truncated_fixed32", Msg().Tag(7, WireType::kFixed32).Raw("\x01\x02").Take());
  add("unterminated_group", Msg().Tag(7, WireType::kStartGroup).VarintField(1, 1).Take());
  add("mismatched_end_group", Msg().Tag(7, WireType::kStartGroup).Tag(8, WireType::kEndGroup).Take());
  add("end_group_at_top_level", ExampleOf(Map({Entry("i", Ints({1}))})) + Msg().Tag(7, WireType::kEndGroup).Take());
  add("field_number_zero", Msg().Tag(0, WireType::kVarint).Varint(1).Take());
  add("wire_type_6", Msg().Raw("\x0e").Take());
  add("wire_type_7", Msg().Raw("\x0f").Take());
  add("zero_byte_after_message", ExampleOf(Map({Entry("i", Ints({1}))})) + std::string(1, '\0'));
  add("non_utf8_key", ExampleOf(Map({Entry("\xC3\x28", Ints({1})), Entry("i", Ints({1}))})));
  add("nul_in_key", ExampleOf(Map({Entry(std::string_view("i\0j", 3), Ints({1})), Entry("i", Ints({2}))})));
  add("length_over_2gb", Msg().Tag(kFeatures, WireType::kLengthDelimited).Varint(0xFFFFFFFFull).Take());
  add("wrong_wire_type_group_for_features", Msg()
                                                .Tag(kFeatures, WireType::kStartGroup)
                                                .BytesField(kEntry, Entry("i", Ints({1})))
                                                .Tag(kFeatures, WireType::kEndGroup)
                                                .Take());
  add("field_number_max", Msg().VarintField(536870911, 1).Raw(ExampleWith("i", Ints({1}))).Take());
  add("tag_over_32_bits", Msg().Varint(uint64_t{1} << 35).Varint(1).Take());
  // libprotobuf bounds nesting (100 levels by default); unknown groups count as levels.
  for (int depth : {30, 95, 96, 97, 98, 99, 100, 101, 102, 1000}) {
    WireWriter nested;
    for (int i = 0; i < depth; ++i) nested.Tag(9, WireType::kStartGroup);
    for (int i = 0; i < depth; ++i) nested.Tag(9, WireType::kEndGroup);
    const std::string groups = nested.Take();
    add("unknown_groups_nested_" + std::to_string(depth), groups + ExampleWith("i", Ints({1})));
    add("unknown_groups_nested_in_feature_" + std::to_string(depth), ExampleWith("i", Ints({1}) + groups));
    add("unknown_groups_nested_in_list_" + std::to_string(depth),
        ExampleWith("i", List(kInt64List, Msg().Raw(groups).VarintField(kValue, 1))));
  }
  add("huge_bytes_value", ExampleOf(Map({Entry("b", Bytes({std::string(3 << 20, 'q')}))})));
  return cases;
}

std::vector<WireCase> SequenceExampleCases() {
  std::vector<WireCase> cases;
  auto add = [&cases](std::string name, std::string record) {
    cases.push_back({std::move(name), std::move(record), RecordType::kSequenceExample});
  };
  auto lists = [](std::string_view map) { return Msg().BytesField(kFeatureLists, map).Take(); };
  auto steps = [](std::initializer_list<std::string_view> features) {
    WireWriter list;
    for (std::string_view f : features) list.BytesField(kValue, f);
    return list.Take();
  };
  add("seq_empty_record", "");
  add("seq_plain", ExampleOf(Map({Entry("i", Ints({1}))})) +
                       lists(Map({Entry("i", steps({Ints({1, 2}), Ints({})})), Entry("b", steps({Bytes({"a"})}))})));
  add("seq_kindless_step", lists(Map({Entry("i", steps({Ints({1}), "", Ints({2})})), Entry("b", steps({""}))})));
  add("seq_empty_feature_list", lists(Map({Entry("i", ""), Entry("b", steps({}))})));
  add("seq_list_entry_missing_value", lists(Map({Msg().BytesField(kKey, "i").Take()})));
  add("seq_list_entry_value_before_key",
      lists(Map({Msg().BytesField(kMapValue, steps({Ints({5})})).BytesField(kKey, "i").Take()})));
  add("seq_duplicate_list_keys",
      lists(Map({Entry("i", steps({Ints({1})})), Entry("i", steps({Ints({2}), Ints({3})}))})));
  add("seq_list_entry_value_twice", lists(Map({Msg()
                                                   .BytesField(kKey, "i")
                                                   .BytesField(kMapValue, steps({Ints({1})}))
                                                   .BytesField(kMapValue, steps({Ints({2})}))
                                                   .Take()})));
  add("seq_context_and_lists_twice",
      ExampleOf(Map({Entry("i", Ints({1}))})) + lists(Map({Entry("i", steps({Ints({1})}))})) +
          ExampleOf(Map({Entry("f", Floats({2}))})) + lists(Map({Entry("b", steps({Bytes({"x"})}))})));
  add("seq_lists_before_context",
      lists(Map({Entry("i", steps({Ints({9})}))})) + ExampleOf(Map({Entry("i", Ints({8}))})));
  add("seq_unpacked_step",
      lists(Map({Entry(
          "i",
          steps({Msg().BytesField(kInt64List, Msg().VarintField(kValue, 1).VarintField(kValue, 2).Take()).Take()}))})));
  add("seq_step_kinds_merge", lists(Map({Entry("i", steps({Ints({1}) + Ints({2}), Floats({1}) + Ints({3})}))})));
  add("seq_unknown_fields_every_level",
      Msg()
          .UnknownFieldsOfEveryType(3)
          .BytesField(kFeatureLists,
                      Msg()
                          .UnknownFieldsOfEveryType(2)
                          .BytesField(kEntry, Msg()
                                                  .UnknownFieldsOfEveryType(3)
                                                  .BytesField(kKey, "i")
                                                  .BytesField(kMapValue, Msg()
                                                                             .UnknownFieldsOfEveryType(2)
                                                                             .BytesField(kValue, Ints({4}))
                                                                             .UnknownFieldsOfEveryType(9)
                                                                             .Take())
                                                  .Take())
                          .Take())
          .UnknownFieldsOfEveryType(10)
          .Take());
  add("seq_wrong_wire_type_feature_lists", Msg().VarintField(kFeatureLists, 1).Take());
  add("seq_wrong_wire_type_step",
      lists(Map({Entry("i", Msg().VarintField(kValue, 1).BytesField(kValue, Ints({2})).Take())})));
  add("seq_truncated_step", lists(Map({Entry("i", Msg().Tag(kValue, WireType::kLengthDelimited).Varint(50).Take())})));
  add("seq_non_utf8_list_key", lists(Map({Entry("\xFF", steps({Ints({1})}))})));
  add("seq_example_record", ExampleOf(Map({Entry("i", Ints({1}))})));
  return cases;
}

// The schemas every case decodes with: one column per kind under the names the cases use.
SchemaPtr ExplicitSchema(RecordType type) {
  if (type == RecordType::kExample) {
    return Schema::Make(
        {Field::Make("i", list(int64())), Field::Make("f", list(float32())), Field::Make("b", list(binary()))});
  }
  auto kind = [](std::string_view k) {
    return std::make_shared<KeyValueMetadata>(
        std::vector<std::pair<std::string, std::string>>{{std::string(example::kKindMetadataKey), std::string(k)}});
  };
  return Schema::Make({Field::Make("i", list(int64()), true, kind(example::kKindContext)),
                       Field::Make("f", list(float32()), true, kind(example::kKindContext)),
                       Field::Make("i", list(list(int64())), true, kind(example::kKindFeatureList)),
                       Field::Make("b", list(list(binary())), true, kind(example::kKindFeatureList))});
}

// libprotobuf's verdict on a record and, when it accepts it, the message.
struct OracleParse {
  bool ok = false;
  oracle::Example example;
  oracle::SequenceExample sequence_example;

  explicit OracleParse(const WireCase& c) {
    ok =
        c.type == RecordType::kExample ? example.ParseFromString(c.record) : sequence_example.ParseFromString(c.record);
  }
};

// Decodes the case with `schema`; checks that recflow accepts exactly what libprotobuf accepts
// and that the row then equals libprotobuf's message.
void ExpectAgreement(const WireCase& c, const OracleParse& oracle, const SchemaPtr& schema, const char* schema_kind) {
  SCOPED_TRACE(std::string(schema_kind) + " schema:\n" + schema->ToString());
  auto decoder = example::Decoder::Make(schema, c.type);
  ASSERT_TRUE(decoder.ok()) << decoder.status().ToString();
  const Status st = (*decoder)->Append(c.record);
  if (!oracle.ok) {
    EXPECT_FALSE(st.ok()) << "libprotobuf rejects the record, recflow accepts it";
    return;
  }
  ASSERT_TRUE(st.ok()) << "libprotobuf accepts the record, recflow rejects it: " << st.ToString();
  auto batch = (*decoder)->Finish();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  INTEROP_ASSERT_OK((*batch)->ValidateFull());
  ASSERT_EQ((*batch)->num_rows(), 1);
  const bool sequence = c.type == RecordType::kSequenceExample;
  EXPECT_TRUE(sequence ? RowMatchesSequenceExample(**batch, 0, oracle.sequence_example, Direction::kDecoded)
                       : RowMatchesExample(**batch, 0, oracle.example, Direction::kDecoded));
}

class WireCaseTest : public ::testing::TestWithParam<WireCase> {};

TEST_P(WireCaseTest, DecodesLikeLibprotobuf) {
  const WireCase& c = GetParam();
  const OracleParse oracle(c);
  RecordProperty("libprotobuf", oracle.ok ? "accepts" : "rejects");
  ExpectAgreement(c, oracle, ExplicitSchema(c.type), "explicit");

  example::SchemaInferrer inferrer(c.type);
  const Status observed = inferrer.Observe(c.record);
  if (!oracle.ok) {
    EXPECT_FALSE(observed.ok()) << "libprotobuf rejects the record, SchemaInferrer accepts it";
    return;
  }
  ASSERT_TRUE(observed.ok()) << "libprotobuf accepts the record, SchemaInferrer rejects it: " << observed.ToString();
  ExpectAgreement(c, oracle, inferrer.Finish(), "inferred");
}

std::string CaseName(const ::testing::TestParamInfo<WireCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Example, WireCaseTest, ::testing::ValuesIn(ExampleCases()), CaseName);
INSTANTIATE_TEST_SUITE_P(SequenceExample, WireCaseTest, ::testing::ValuesIn(SequenceExampleCases()), CaseName);

}  // namespace
}  // namespace recflow::interop
