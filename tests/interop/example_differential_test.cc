// Differential: random tf.Example / tf.SequenceExample messages through libprotobuf and recflow,
// both ways — libprotobuf-serialized → recflow-decoded, and recflow-encoded → libprotobuf-parsed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "example.pb.h"
#include "interop_util.h"
#include "random_examples.h"
#include "recflow/columnar/builder.h"
#include "recflow/formats/example/encoder.h"
#include "row_matcher.h"

namespace recflow::interop {
namespace {

using example::RecordType;
using Kind = FeatureValues::Kind;

constexpr uint64_t kSeeds[] = {1, 2, 0x5EED, 20260607};
constexpr int kRecordsPerSeed = 250;

DataTypePtr ValueType(const FeatureSpec& spec) {
  switch (spec.kind) {
    case Kind::kInt64:
      return int64();
    case Kind::kFloat:
      return float32();
    default:
      return spec.utf8 ? utf8() : binary();
  }
}

std::shared_ptr<KeyValueMetadata> KindMetadata(std::string_view kind) {
  return std::make_shared<KeyValueMetadata>(
      std::vector<std::pair<std::string, std::string>>{{std::string(example::kKindMetadataKey), std::string(kind)}});
}

// The schema inference should find: the kind's type, scalar when every present list had one
// value, null when no value was ever seen; nullable when a record lacked a kind.
DataTypePtr ExpectedInferredType(const FeatureSpec& spec) {
  if (spec.p_empty >= 1 || spec.p_kindless >= 1) return null();
  // As in spark-tfrecord, empty lists do not vote: a one-value feature stays scalar.
  return spec.scalar ? ValueType(spec) : list(ValueType(spec));
}

// An explicit schema naming every spec as a nullable list, plus a column no record has.
SchemaPtr ExplicitExampleSchema(const std::vector<FeatureSpec>& specs) {
  std::vector<FieldPtr> fields;
  for (const FeatureSpec& spec : specs) fields.push_back(Field::Make(spec.name, list(ValueType(spec))));
  fields.push_back(Field::Make("not_in_any_record", list(int64())));
  return Schema::Make(std::move(fields));
}

template <typename Message>
std::vector<std::string> SerializeAll(const std::vector<Message>& messages) {
  std::vector<std::string> records;
  for (const Message& m : messages) {
    std::string record;
    EXPECT_TRUE(m.SerializeToString(&record));
    records.push_back(std::move(record));
  }
  return records;
}

// Decodes `records` with `schema`, compares every row with `messages`, then encodes the batch
// and compares libprotobuf's parse of each encoded record with the batch.
template <typename Message>
void CheckBothWays(const std::vector<Message>& messages, const std::vector<std::string>& records,
                   const SchemaPtr& schema, RecordType type) {
  SCOPED_TRACE("schema:\n" + schema->ToString());
  INTEROP_ASSIGN_OR_FAIL(auto batch, DecodeAll(records, schema, type));
  INTEROP_ASSERT_OK(batch->ValidateFull());
  ASSERT_EQ(batch->num_rows(), static_cast<int64_t>(messages.size()));
  INTEROP_ASSIGN_OR_FAIL(std::vector<std::string> encoded, EncodeAll(*batch, type));
  for (size_t row = 0; row < messages.size(); ++row) {
    const auto r = static_cast<int64_t>(row);
    Message parsed;
    ASSERT_TRUE(parsed.ParseFromString(encoded[row])) << "libprotobuf rejects recflow's encoding of row " << row;
    // Canonical encoding (packed lists, minimal varints): libprotobuf would write as many bytes.
    EXPECT_EQ(encoded[row].size(), parsed.ByteSizeLong()) << "row " << row;
    if constexpr (std::is_same_v<Message, oracle::Example>) {
      ASSERT_TRUE(RowMatchesExample(*batch, r, messages[row], Direction::kDecoded));
      ASSERT_TRUE(RowMatchesExample(*batch, r, parsed, Direction::kEncoded));
    } else {
      ASSERT_TRUE(RowMatchesSequenceExample(*batch, r, messages[row], Direction::kDecoded));
      ASSERT_TRUE(RowMatchesSequenceExample(*batch, r, parsed, Direction::kEncoded));
    }
  }
  // A slice encodes the same rows (offsets into shared buffers are honoured).
  const auto slice = batch->Slice(1, batch->num_rows() - 2);
  INTEROP_ASSIGN_OR_FAIL(std::vector<std::string> sliced, EncodeAll(*slice, type));
  for (size_t row = 0; row < sliced.size(); ++row) EXPECT_EQ(sliced[row], encoded[row + 1]) << "sliced row " << row;
}

TEST(ExampleDifferentialTest, RandomExamples) {
  const std::vector<FeatureSpec> specs = VariedFeatureSpecs();
  for (uint64_t seed : kSeeds) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomExampleGenerator generator(seed);
    std::vector<oracle::Example> messages;
    for (int i = 0; i < kRecordsPerSeed; ++i) messages.push_back(generator.NextExample(specs));
    const std::vector<std::string> records = SerializeAll(messages);

    INTEROP_ASSIGN_OR_FAIL(SchemaPtr inferred, InferSchema(records, RecordType::kExample));
    EXPECT_EQ(inferred->num_fields(), static_cast<int>(specs.size())) << inferred->ToString();
    for (const FeatureSpec& spec : specs) {
      const int index = inferred->GetFieldIndex(spec.name);
      ASSERT_GE(index, 0) << "no column for feature '" << spec.name << "'";
      const Field& field = *inferred->field(index);
      EXPECT_TRUE(field.type()->Equals(*ExpectedInferredType(spec))) << field.ToString();
      // A scalar column reads an empty list as null.
      const bool empty_as_null = spec.scalar && spec.p_empty > 0;
      EXPECT_EQ(field.nullable(), spec.p_missing + spec.p_kindless > 0 || empty_as_null) << field.ToString();
    }
    CheckBothWays(messages, records, inferred, RecordType::kExample);
    CheckBothWays(messages, records, ExplicitExampleSchema(specs), RecordType::kExample);
  }
}

TEST(ExampleDifferentialTest, RandomSequenceExamples) {
  const std::vector<FeatureSpec> context = VariedFeatureSpecs();
  std::vector<FeatureSpec> lists;
  for (const FeatureSpec& spec : context) {
    if (spec.p_empty >= 1 || spec.p_kindless >= 1) continue;  // steps always carry their kind
    FeatureSpec list_spec = spec;
    list_spec.p_long = 0.01;
    list_spec.long_length = 300;
    lists.push_back(list_spec);
  }
  for (uint64_t seed : kSeeds) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomExampleGenerator generator(seed);
    std::vector<oracle::SequenceExample> messages;
    for (int i = 0; i < kRecordsPerSeed / 2; ++i) messages.push_back(generator.NextSequenceExample(context, lists));
    const std::vector<std::string> records = SerializeAll(messages);

    INTEROP_ASSIGN_OR_FAIL(SchemaPtr inferred, InferSchema(records, RecordType::kSequenceExample));
    EXPECT_EQ(inferred->num_fields(), static_cast<int>(context.size() + lists.size())) << inferred->ToString();
    CheckBothWays(messages, records, inferred, RecordType::kSequenceExample);

    std::vector<FieldPtr> fields;
    for (const FeatureSpec& spec : context) {
      fields.push_back(Field::Make(spec.name, list(ValueType(spec)), true, KindMetadata(example::kKindContext)));
    }
    for (const FeatureSpec& spec : lists) {
      fields.push_back(
          Field::Make(spec.name, list(list(ValueType(spec))), true, KindMetadata(example::kKindFeatureList)));
    }
    CheckBothWays(messages, records, Schema::Make(std::move(fields)), RecordType::kSequenceExample);
  }
}

// The encoder's other column types: every integer width and bool as Int64List, float64 as
// FloatList (narrowed, and counted when inexact), lists of those, the null type omitted.
TEST(ExampleDifferentialTest, EncoderColumnTypes) {
  constexpr int64_t kRows = 64;
  SchemaPtr schema = Schema::Make({
      Field::Make("i8", int8()),
      Field::Make("i16", int16()),
      Field::Make("i32", int32()),
      Field::Make("u8", uint8()),
      Field::Make("u32", uint32()),
      Field::Make("u64", uint64()),
      Field::Make("flag", boolean()),
      Field::Make("f64", float64()),
      Field::Make("nothing", null()),
      Field::Make("i16s", list(int16())),
      Field::Make("f64s", list(float64())),
      Field::Make("text", utf8()),
  });
  std::vector<std::unique_ptr<ArrayBuilder>> builders;
  for (const FieldPtr& field : schema->fields()) {
    INTEROP_ASSIGN_OR_FAIL(auto builder, MakeBuilder(field->type()));
    builders.push_back(std::move(builder));
  }
  int64_t inexact_doubles = 0;
  for (int64_t row = 0; row < kRows; ++row) {
    const bool null = row % 7 == 3;
    auto append = [&](int column, auto value) {
      using T = decltype(value);
      auto* b = static_cast<NumericBuilder<T>*>(builders[static_cast<size_t>(column)].get());
      return null ? b->AppendNull() : b->Append(value);
    };
    INTEROP_ASSERT_OK(append(0, static_cast<int8_t>(-row * 3)));
    INTEROP_ASSERT_OK(append(1, static_cast<int16_t>(row * -1000)));
    INTEROP_ASSERT_OK(append(2, static_cast<int32_t>(row * -70000001)));
    INTEROP_ASSERT_OK(append(3, static_cast<uint8_t>(255 - row)));
    INTEROP_ASSERT_OK(append(4, static_cast<uint32_t>(0xFFFFFFFFu - static_cast<uint32_t>(row))));
    INTEROP_ASSERT_OK(append(5, static_cast<uint64_t>(INT64_MAX) - static_cast<uint64_t>(row)));
    auto* flag = static_cast<BooleanBuilder*>(builders[6].get());
    INTEROP_ASSERT_OK(null ? flag->AppendNull() : flag->Append(row % 2 == 0));
    const double d = row % 4 == 0 ? std::ldexp(1.0, -static_cast<int>(row)) : 0.1 * static_cast<double>(row);
    if (!null && static_cast<double>(static_cast<float>(d)) != d) ++inexact_doubles;
    INTEROP_ASSERT_OK(append(7, d));
    INTEROP_ASSERT_OK(builders[8]->AppendNull());
    auto* shorts = static_cast<ListBuilder*>(builders[9].get());
    auto* doubles = static_cast<ListBuilder*>(builders[10].get());
    if (null) {
      INTEROP_ASSERT_OK(shorts->AppendNull());
      INTEROP_ASSERT_OK(doubles->AppendNull());
    } else {
      INTEROP_ASSERT_OK(shorts->Append());
      INTEROP_ASSERT_OK(doubles->Append());
      for (int64_t k = 0; k < row % 5; ++k) {
        INTEROP_ASSERT_OK(static_cast<Int16Builder*>(shorts->value_builder())->Append(static_cast<int16_t>(-k)));
        INTEROP_ASSERT_OK(static_cast<Float64Builder*>(doubles->value_builder())->Append(0.5 * static_cast<double>(k)));
      }
    }
    auto* text = static_cast<BinaryBuilder*>(builders[11].get());
    INTEROP_ASSERT_OK(null ? text->AppendNull() : text->Append(std::string(static_cast<size_t>(row % 3), 'x')));
  }
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (auto& builder : builders) {
    INTEROP_ASSIGN_OR_FAIL(auto column, builder->Finish());
    columns.push_back(std::move(column));
  }
  INTEROP_ASSIGN_OR_FAIL(auto batch, RecordBatch::Make(schema, kRows, std::move(columns)));
  INTEROP_ASSIGN_OR_FAIL(auto encoder, example::Encoder::Make(schema, RecordType::kExample));
  std::string record;
  for (int64_t row = 0; row < kRows; ++row) {
    INTEROP_ASSERT_OK(encoder->Encode(*batch, row, &record));
    oracle::Example parsed;
    ASSERT_TRUE(parsed.ParseFromString(record)) << "row " << row;
    EXPECT_EQ(record.size(), parsed.ByteSizeLong()) << "row " << row;
    EXPECT_TRUE(RowMatchesExample(*batch, row, parsed, Direction::kEncoded));
  }
  EXPECT_EQ(encoder->stats().narrowed_doubles, inexact_doubles);
  EXPECT_EQ(encoder->stats().records, kRows);
}

// proto3 rejects map keys that are not UTF-8 (libprotobuf serializes them with a logged error
// but refuses to parse them): recflow must reject such records too.
TEST(ExampleDifferentialTest, NonUtf8FeatureNames) {
  for (const std::string& name :
       {std::string("\xFF"), std::string("a\xC3"), std::string("\xED\xA0\x80"), std::string("\xC0\x80"),
        std::string("\xF4\x90\x80\x80"), std::string("\xE0\x80\xAF")}) {
    oracle::Example message;
    (*message.mutable_features()->mutable_feature())[name].mutable_int64_list()->add_value(1);
    std::string record;
    ASSERT_TRUE(message.SerializeToString(&record));
    oracle::Example parsed;
    ASSERT_FALSE(parsed.ParseFromString(record));
    EXPECT_FALSE(DecodeAll({record}, Schema::Make({Field::Make("a", list(int64()))}), RecordType::kExample).ok())
        << "recflow accepts the non-UTF-8 feature name that libprotobuf rejects";
  }
}

}  // namespace
}  // namespace recflow::interop
