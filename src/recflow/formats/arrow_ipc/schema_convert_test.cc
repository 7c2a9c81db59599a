// Tests of ConvertSchema: every IPC type, nullability, metadata, dictionaries at any depth and shared ids.
#include "recflow/formats/arrow_ipc/schema_convert.h"

#include <gtest/gtest.h>

// The descriptors are written with designated initializers that leave the other members at
// their defaults on purpose.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace recflow::arrow_ipc {
namespace {

FieldDesc Leaf(std::string name, TypeDesc type, bool nullable = true) {
  FieldDesc f;
  f.name = std::move(name);
  f.type = std::move(type);
  f.nullable = nullable;
  return f;
}

FieldDesc Nested(std::string name, TypeId id, std::vector<FieldDesc> children) {
  FieldDesc f = Leaf(std::move(name), TypeDesc{.id = id});
  f.children = std::move(children);
  return f;
}

TypeDesc Int(int bits, bool is_signed) { return TypeDesc{.id = TypeId::kInt, .bit_width = bits, .is_signed = is_signed}; }

DictionaryDesc Dict(int64_t id, TypeDesc index = Int(32, true), bool ordered = false) {
  return DictionaryDesc{.id = id, .index_type = std::move(index), .ordered = ordered};
}

std::string ConvertedType(const FieldDesc& field) {
  auto type = ConvertFieldType(field);
  return type.ok() ? (*type)->ToString() : "error: " + type.status().ToString();
}

TEST(ConvertSchema, EveryLeafType) {
  using TU = arrow_ipc::TimeUnit;
  const std::vector<std::pair<TypeDesc, DataTypePtr>> cases = {
      {TypeDesc{.id = TypeId::kNull}, null()},
      {TypeDesc{.id = TypeId::kBool}, boolean()},
      {Int(8, true), int8()},
      {Int(16, true), int16()},
      {Int(32, true), int32()},
      {Int(64, true), int64()},
      {Int(8, false), uint8()},
      {Int(16, false), uint16()},
      {Int(32, false), uint32()},
      {Int(64, false), uint64()},
      {TypeDesc{.id = TypeId::kFloatingPoint, .precision = FloatPrecision::kHalf}, float16()},
      {TypeDesc{.id = TypeId::kFloatingPoint, .precision = FloatPrecision::kSingle}, float32()},
      {TypeDesc{.id = TypeId::kFloatingPoint, .precision = FloatPrecision::kDouble}, float64()},
      {TypeDesc{.id = TypeId::kDecimal, .bit_width = 128, .decimal_precision = 10, .decimal_scale = 2}, decimal(10, 2)},
      {TypeDesc{.id = TypeId::kDecimal, .bit_width = 256, .decimal_precision = 70, .decimal_scale = -3},
       decimal(70, -3, 256)},
      {TypeDesc{.id = TypeId::kDate, .date_unit = DateUnit::kDay}, date32()},
      {TypeDesc{.id = TypeId::kDate, .date_unit = DateUnit::kMillisecond}, date64()},
      {TypeDesc{.id = TypeId::kTime, .bit_width = 32, .time_unit = TU::kSecond}, time32(recflow::TimeUnit::kSecond)},
      {TypeDesc{.id = TypeId::kTime, .bit_width = 32, .time_unit = TU::kMillisecond}, time32(recflow::TimeUnit::kMilli)},
      {TypeDesc{.id = TypeId::kTime, .bit_width = 64, .time_unit = TU::kMicrosecond}, time64(recflow::TimeUnit::kMicro)},
      {TypeDesc{.id = TypeId::kTime, .bit_width = 64, .time_unit = TU::kNanosecond}, time64(recflow::TimeUnit::kNano)},
      {TypeDesc{.id = TypeId::kTimestamp, .time_unit = TU::kMillisecond, .timezone = "Europe/Paris"},
       timestamp(recflow::TimeUnit::kMilli, "Europe/Paris")},
      {TypeDesc{.id = TypeId::kTimestamp, .time_unit = TU::kNanosecond}, timestamp(recflow::TimeUnit::kNano)},
      {TypeDesc{.id = TypeId::kDuration, .time_unit = TU::kSecond}, duration(recflow::TimeUnit::kSecond)},
      {TypeDesc{.id = TypeId::kInterval, .interval_unit = IntervalUnit::kYearMonth},
       interval(recflow::IntervalUnit::kYearMonth)},
      {TypeDesc{.id = TypeId::kInterval, .interval_unit = IntervalUnit::kDayTime},
       interval(recflow::IntervalUnit::kDayTime)},
      {TypeDesc{.id = TypeId::kInterval, .interval_unit = IntervalUnit::kMonthDayNano},
       interval(recflow::IntervalUnit::kMonthDayNano)},
      {TypeDesc{.id = TypeId::kBinary}, binary()},
      {TypeDesc{.id = TypeId::kUtf8}, utf8()},
      {TypeDesc{.id = TypeId::kLargeBinary}, large_binary()},
      {TypeDesc{.id = TypeId::kLargeUtf8}, large_utf8()},
      {TypeDesc{.id = TypeId::kFixedSizeBinary, .byte_width = 7}, fixed_size_binary(7)},
  };
  for (const auto& [desc, expected] : cases) {
    auto type = ConvertFieldType(Leaf("x", desc));
    ASSERT_TRUE(type.ok()) << TypeToString(desc) << ": " << type.status().ToString();
    EXPECT_TRUE((*type)->Equals(*expected)) << TypeToString(desc) << " became " << (*type)->ToString();
  }
  EXPECT_FALSE(ConvertFieldType(Leaf("x", Int(12, true))).ok());
}

TEST(ConvertSchema, NestedTypesKeepChildNamesAndNullability) {
  FieldDesc items = Leaf("item", TypeDesc{.id = TypeId::kUtf8}, false);
  EXPECT_EQ(ConvertedType(Nested("l", TypeId::kList, {items})), list(Field::Make("item", utf8(), false))->ToString());
  EXPECT_TRUE((*ConvertFieldType(Nested("l", TypeId::kLargeList, {items})))
                  ->Equals(*large_list(Field::Make("item", utf8(), false))));
  FieldDesc fixed = Nested("f", TypeId::kFixedSizeList, {items});
  fixed.type.list_size = 3;
  EXPECT_TRUE((*ConvertFieldType(fixed))->Equals(*fixed_size_list(Field::Make("item", utf8(), false), 3)));
  FieldDesc s = Nested("s", TypeId::kStruct, {Leaf("a", Int(8, true)), Leaf("a", TypeDesc{.id = TypeId::kBool}, false)});
  EXPECT_TRUE((*ConvertFieldType(s))->Equals(*struct_({Field::Make("a", int8()), Field::Make("a", boolean(), false)})));

  FieldDesc entries = Nested("pairs", TypeId::kStruct, {Leaf("k", TypeDesc{.id = TypeId::kUtf8}, false), Leaf("v", Int(64, true))});
  entries.nullable = false;
  FieldDesc m = Nested("m", TypeId::kMap, {entries});
  m.type.keys_sorted = true;
  auto map_type = ConvertFieldType(m);
  ASSERT_TRUE(map_type.ok()) << map_type.status().ToString();
  EXPECT_TRUE((*map_type)->Equals(*map(Field::Make("k", utf8(), false), Field::Make("v", int64()), true, "pairs")));

  FieldDesc u = Nested("u", TypeId::kUnion, {Leaf("i", Int(32, true)), Leaf("s", TypeDesc{.id = TypeId::kUtf8})});
  u.type.union_mode = UnionMode::kDense;
  u.type.union_type_ids = {5, 9};
  auto union_type = ConvertFieldType(u);
  ASSERT_TRUE(union_type.ok());
  EXPECT_TRUE((*union_type)->Equals(*union_(recflow::UnionMode::kDense, {Field::Make("i", int32()), Field::Make("s", utf8())}, {5, 9})));
  u.type.union_type_ids = {5};
  EXPECT_FALSE(ConvertFieldType(u).ok());
  EXPECT_FALSE(ConvertFieldType(Nested("l", TypeId::kList, {})).ok());
}

TEST(ConvertSchema, MetadataAndNullabilityOfSchemaAndFields) {
  SchemaDesc schema;
  FieldDesc a = Leaf("a", Int(32, true), false);
  a.metadata = {{"k1", "v1"}, {"ARROW:extension:name", "uuid"}};
  schema.fields = {a, Leaf("b", TypeDesc{.id = TypeId::kUtf8})};
  schema.metadata = {{"created_by", "test"}};
  auto converted = ConvertSchema(schema);
  ASSERT_TRUE(converted.ok()) << converted.status().ToString();
  const Schema& s = *converted->schema;
  ASSERT_EQ(s.num_fields(), 2);
  EXPECT_FALSE(s.field(0)->nullable());
  EXPECT_TRUE(s.field(1)->nullable());
  ASSERT_NE(s.field(0)->metadata(), nullptr);
  EXPECT_EQ(s.field(0)->metadata()->items(), a.metadata);
  EXPECT_EQ(s.field(1)->metadata(), nullptr);
  ASSERT_NE(s.metadata(), nullptr);
  EXPECT_EQ(s.metadata()->Get("created_by"), "test");
  EXPECT_TRUE(converted->dictionary_fields.empty());
}

TEST(ConvertSchema, DictionariesAtAnyDepthAndShared) {
  SchemaDesc schema;
  FieldDesc top = Leaf("top", TypeDesc{.id = TypeId::kUtf8});
  top.dictionary = Dict(7, Int(8, false), true);
  FieldDesc inner = Leaf("item", TypeDesc{.id = TypeId::kUtf8});
  inner.dictionary = Dict(7, Int(16, true));  // shares id 7 with "top"
  FieldDesc in_list = Nested("l", TypeId::kList, {inner});
  FieldDesc deep = Leaf("d", Int(64, true));
  deep.dictionary = Dict(3);
  FieldDesc in_struct = Nested("s", TypeId::kStruct, {Leaf("x", TypeDesc{.id = TypeId::kBool}), deep});
  // A dictionary whose values hold another dictionary-encoded field.
  FieldDesc outer = Nested("o", TypeId::kList, {deep});
  outer.dictionary = Dict(4);
  schema.fields = {top, in_list, in_struct, outer};

  auto converted = ConvertSchema(schema);
  ASSERT_TRUE(converted.ok()) << converted.status().ToString();
  EXPECT_TRUE(converted->schema->field(0)->type()->Equals(*dictionary(uint8(), utf8(), true)));
  EXPECT_TRUE(converted->schema->field(1)->type()->Equals(*list(Field::Make("item", dictionary(int16(), utf8())))));
  const auto& refs = converted->dictionary_fields;
  ASSERT_EQ(refs.size(), 5u);
  std::vector<std::pair<int64_t, std::string>> got;
  for (const auto& ref : refs) {
    got.emplace_back(ref.id, ref.path);
    EXPECT_EQ(ref.field->type()->id(), recflow::TypeId::kDictionary) << ref.path;
  }
  const std::vector<std::pair<int64_t, std::string>> expected = {
      {7, "top"}, {7, "l.item"}, {3, "s.d"}, {4, "o"}, {3, "o.d"}};
  EXPECT_EQ(got, expected);
  EXPECT_EQ(refs[1].field->name(), "item");
  ASSERT_EQ(converted->dictionary_value_types.size(), 3u);
  EXPECT_TRUE(converted->dictionary_value_types.at(7)->Equals(*utf8()));
  EXPECT_TRUE(converted->dictionary_value_types.at(3)->Equals(*int64()));
  EXPECT_TRUE(converted->dictionary_value_types.at(4)->Equals(*list(Field::Make("d", dictionary(int32(), int64())))));

  // One id for values of two different types is refused.
  FieldDesc clash = Leaf("c", Int(8, true));
  clash.dictionary = Dict(7);
  schema.fields.push_back(clash);
  EXPECT_EQ(ConvertSchema(schema).status().code(), StatusCode::kDataError);
  // Indices must be integers.
  FieldDesc bad = Leaf("b", TypeDesc{.id = TypeId::kUtf8});
  bad.dictionary = Dict(1, TypeDesc{.id = TypeId::kUtf8});
  EXPECT_FALSE(ConvertFieldType(bad).ok());
}

}  // namespace
}  // namespace recflow::arrow_ipc
