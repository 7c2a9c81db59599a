// Tests for SchemaFromAvroJson: every supported Avro type, and the types recflow refuses.
#include "recflow/formats/avro/schema_mapping.h"

#include <gtest/gtest.h>

#include <string>

namespace recflow::avro {
namespace {

TEST(SchemaMappingTest, MapsEverySupportedType) {
  auto schema = SchemaFromAvroJson(R"({"type": "record", "name": "T", "namespace": "ns", "fields": [
    {"name": "n", "type": "null"}, {"name": "b", "type": "boolean"}, {"name": "i", "type": "int"},
    {"name": "l", "type": "long"}, {"name": "f", "type": "float"}, {"name": "d", "type": "double"},
    {"name": "by", "type": "bytes"}, {"name": "s", "type": "string"},
    {"name": "os", "type": ["null", "string"]}, {"name": "ol", "type": ["long", "null"]},
    {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B"]}},
    {"name": "fx", "type": {"type": "fixed", "name": "F", "size": 16}},
    {"name": "a", "type": {"type": "array", "items": ["null", "int"]}},
    {"name": "r", "type": {"type": "record", "name": "Inner", "fields": [
        {"name": "x", "type": "double"}, {"name": "e2", "type": "E"}]}},
    {"name": "or", "type": ["null", "Inner"]},
    {"name": "m", "type": {"type": "map", "values": "long"}},
    {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}}]})");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  auto inner = struct_({Field::Make("x", float64(), false), Field::Make("e2", utf8(), false)});
  auto entries = struct_({Field::Make("key", utf8(), false), Field::Make("value", int64(), false)});
  auto expected = Schema::Make({
      Field::Make("n", null(), true),
      Field::Make("b", boolean(), false),
      Field::Make("i", int32(), false),
      Field::Make("l", int64(), false),
      Field::Make("f", float32(), false),
      Field::Make("d", float64(), false),
      Field::Make("by", binary(), false),
      Field::Make("s", utf8(), false),
      Field::Make("os", utf8(), true),
      Field::Make("ol", int64(), true),
      Field::Make("e", utf8(), false),
      Field::Make("fx", binary(), false),
      Field::Make("a", list(Field::Make("item", int32(), true)), false),
      Field::Make("r", inner, false),
      Field::Make("or", inner, true),
      Field::Make("m", list(Field::Make("entries", entries, false)), false),
      Field::Make("ts", int64(), false, std::make_shared<KeyValueMetadata>(std::vector<std::pair<std::string, std::string>>{
                                           {std::string(kLogicalTypeKey), std::string(kTimestampLogicalType)}})),
  });
  EXPECT_TRUE((*schema)->Equals(*expected)) << (*schema)->ToString() << "\nvs\n" << expected->ToString();
  ASSERT_TRUE((*schema)->metadata() != nullptr);
  EXPECT_NE((*schema)->metadata()->Get(kAvroSchemaKey)->find("\"Inner\""), std::string::npos);
}

TEST(SchemaMappingTest, LogicalTypesAndNamespacedReferences) {
  auto schema = SchemaFromAvroJson(R"({"type": "record", "name": "a.T", "fields": [
    {"name": "d", "type": {"type": "int", "logicalType": "date"}},
    {"name": "us", "type": ["null", {"type": "long", "logicalType": "timestamp-micros"}]},
    {"name": "dec", "type": {"type": "fixed", "name": "D", "size": 8, "logicalType": "decimal", "precision": 18, "scale": 4}},
    {"name": "bad", "type": {"type": "bytes", "logicalType": "decimal", "precision": 0}},
    {"name": "other", "type": {"type": "long", "logicalType": "time-micros"}},
    {"name": "inner", "type": {"type": "record", "name": "I", "namespace": "b", "fields": [{"name": "x", "type": "int"}]}},
    {"name": "again", "type": "b.I"}, {"name": "dec2", "type": "a.D"}, {"name": "dec3", "type": "D"}]})");
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  const Schema& s = **schema;
  auto logical = [&](int i) { return s.field(i)->metadata() ? s.field(i)->metadata()->Get(kLogicalTypeKey) : std::nullopt; };
  EXPECT_EQ(logical(0), std::string(kDate32LogicalType));
  EXPECT_TRUE(IsTimestampField(*s.field(1)));
  EXPECT_TRUE(s.field(1)->nullable());
  EXPECT_EQ(logical(2), std::string("decimal(18, 4)"));
  EXPECT_EQ(s.field(2)->type()->id(), TypeId::kUtf8);
  EXPECT_EQ(logical(3), std::nullopt);  // an invalid logical type is ignored
  EXPECT_EQ(s.field(3)->type()->id(), TypeId::kBinary);
  EXPECT_EQ(logical(4), std::nullopt);
  EXPECT_TRUE(s.field(6)->type()->Equals(*s.field(5)->type()));
  EXPECT_EQ(logical(7), std::string("decimal(18, 4)"));
  EXPECT_EQ(logical(8), std::string("decimal(18, 4)"));
}

TEST(SchemaMappingTest, UnknownAndDuplicateNamesAreInvalidArgument) {
  EXPECT_EQ(SchemaFromAvroJson(R"({"type": "record", "name": "T", "fields": [{"name": "x", "type": "I"}]})")
                .status()
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(SchemaFromAvroJson(R"({"type": "record", "name": "T", "fields": [
      {"name": "x", "type": {"type": "fixed", "name": "T", "size": 1}}]})")
                .status()
                .code(),
            StatusCode::kInvalidArgument);
}

TEST(SchemaMappingTest, WideUnionIsATypeErrorNamingTheField) {
  auto schema = SchemaFromAvroJson(R"({"type": "record", "name": "T", "fields": [
    {"name": "ok", "type": "int"},
    {"name": "nested", "type": {"type": "record", "name": "N", "fields": [
        {"name": "u", "type": ["null", "int", "string"]}]}}]})");
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.status().code(), StatusCode::kTypeError);
  EXPECT_EQ(schema.status().context().field, "nested.u");
  EXPECT_NE(schema.status().message().find("union of 3 types"), std::string::npos);
}

TEST(SchemaMappingTest, TopLevelMustBeARecord) {
  auto schema = SchemaFromAvroJson(R"({"type": "array", "items": "int"})");
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.status().code(), StatusCode::kTypeError);
}

TEST(SchemaMappingTest, RecursiveSchemaIsATypeError) {
  auto schema = SchemaFromAvroJson(R"({"type": "record", "name": "Node", "fields": [
    {"name": "value", "type": "int"}, {"name": "next", "type": ["null", "Node"]}]})");
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.status().code(), StatusCode::kTypeError);
  EXPECT_NE(schema.status().message().find("recursive"), std::string::npos);
}

TEST(SchemaMappingTest, InvalidJsonIsInvalidArgument) {
  auto schema = SchemaFromAvroJson("{\"type\": \"no_such_type\"}");
  ASSERT_FALSE(schema.ok());
  EXPECT_EQ(schema.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::avro
