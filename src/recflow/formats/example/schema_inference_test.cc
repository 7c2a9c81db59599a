// SchemaInferrer tests: spark-tfrecord's type mapping, precedence, scalar/list, nullability and statistics.
#include "recflow/formats/example/schema_inference.h"

#include "recflow/columnar/array.h"
#include "recflow/formats/example/decoder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

// The inferred type of feature "x" after observing one Feature per record.
std::string TypeOf(std::initializer_list<WireWriter> features) {
  SchemaInferrer inferrer(RecordType::kExample);
  for (const WireWriter& f : features) EXPECT_TRUE(inferrer.Observe(ExampleOf({Entry("x", f)})).ok());
  SchemaPtr schema = inferrer.Finish();
  EXPECT_EQ(schema->num_fields(), 1);
  return schema->field(0)->type()->ToString();
}

TEST(SchemaInferenceTest, KindsMapToTypes) {
  EXPECT_EQ(TypeOf({Int64Feature({1})}), "int64");
  EXPECT_EQ(TypeOf({FloatFeature({1})}), "float32");
  EXPECT_EQ(TypeOf({BytesFeature({"a"})}), "utf8");
  EXPECT_EQ(TypeOf({BytesFeature({"\xff"})}), "binary");
  EXPECT_EQ(TypeOf({BytesFeature({"a"}), BytesFeature({"\xff"})}), "binary");
}

TEST(SchemaInferenceTest, ScalarOnlyWhenEveryPresentListHasOneValue) {
  EXPECT_EQ(TypeOf({Int64Feature({1}), Int64Feature({2})}), "int64");
  EXPECT_EQ(TypeOf({Int64Feature({1}), Int64Feature({2, 3})}), "list<int64>");
  // As in spark-tfrecord, an empty list does not vote: the column stays scalar, and nullable.
  EXPECT_EQ(TypeOf({Int64Feature({1}), Int64Feature({})}), "int64");
  EXPECT_EQ(TypeOf({Int64Feature({}), Int64Feature({1, 2})}), "list<int64>");
  EXPECT_EQ(TypeOf({Int64Feature({1}), WireWriter()}), "int64");  // kind-less: just null
}

TEST(SchemaInferenceTest, EmptyListInScalarColumnMakesItNullableAndDecodesAsNull) {
  SchemaInferrer inferrer(RecordType::kExample);
  const WireWriter full = ExampleOf({Entry("x", Int64Feature({7}))});
  const WireWriter empty = ExampleOf({Entry("x", Int64Feature({}))});
  ASSERT_TRUE(inferrer.Observe(full).ok());
  ASSERT_TRUE(inferrer.Observe(empty).ok());
  SchemaPtr schema = inferrer.Finish();
  EXPECT_EQ(schema->ToString(), "x: int64");
  auto decoder = std::move(Decoder::Make(schema, RecordType::kExample)).ValueOrDie();
  ASSERT_TRUE(decoder->Append(full).ok());
  ASSERT_TRUE(decoder->Append(empty).ok());
  auto batch = std::move(decoder->Finish()).ValueOrDie();
  Int64Array column(batch->column_data(0));
  EXPECT_EQ(column.Value(0), 7);
  EXPECT_TRUE(column.IsNull(1));
}

TEST(SchemaInferenceTest, Precedence) {
  EXPECT_EQ(TypeOf({Int64Feature({1}), FloatFeature({1})}), "float32");
  EXPECT_EQ(TypeOf({FloatFeature({1}), Int64Feature({1})}), "float32");
  EXPECT_EQ(TypeOf({Int64Feature({1}), BytesFeature({"a"})}), "utf8");
  EXPECT_EQ(TypeOf({FloatFeature({1}), BytesFeature({"\xfe"})}), "binary");
  EXPECT_EQ(TypeOf({Int64Feature({1}), FloatFeature({1, 2})}), "list<float32>");
  EXPECT_EQ(TypeOf({BytesFeature({"a", "b"}), Int64Feature({1})}), "list<utf8>");
  // Empty lists of another kind do not take part in the precedence.
  EXPECT_EQ(TypeOf({Int64Feature({1, 2}), BytesFeature({})}), "list<int64>");
}

TEST(SchemaInferenceTest, NeverValuedFeaturesAreNull) {
  EXPECT_EQ(TypeOf({Int64Feature({}), WireWriter()}), "null");
  EXPECT_EQ(TypeOf({WireWriter()}), "null");
}

TEST(SchemaInferenceTest, NullabilityOrderAndStats) {
  SchemaInferrer inferrer(RecordType::kExample);
  ASSERT_TRUE(inferrer.Observe(ExampleOf({Entry("b", Int64Feature({1})), Entry("a", FloatFeature({1, 2}))})).ok());
  ASSERT_TRUE(
      inferrer
          .Observe(ExampleOf({Entry("a", FloatFeature({})), Entry("b", Int64Feature({2})), Entry("c", WireWriter())}))
          .ok());
  ASSERT_TRUE(inferrer.Observe(ExampleOf({Entry("b", Int64Feature({3})), Entry("c", BytesFeature({"x"}))})).ok());
  // A malformed record changes nothing.
  EXPECT_EQ(
      inferrer
          .Observe(ExampleOf({Entry("d", Int64Feature({1})), Entry("b", WireWriter().BytesField(3, "\x80"))}).bytes())
          .code(),
      StatusCode::kDataError);
  EXPECT_EQ(inferrer.records(), 3);
  SchemaPtr schema = inferrer.Finish();
  EXPECT_EQ(schema->ToString(), "b: int64 not null\na: list<float32>\nc: utf8");
  const auto& stats = inferrer.stats();
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(stats[0].present, 3);
  EXPECT_EQ(stats[0].missing, 0);
  EXPECT_EQ(stats[1].present, 2);
  EXPECT_EQ(stats[1].missing, 1);
  EXPECT_EQ(stats[1].min_length, 0);
  EXPECT_EQ(stats[1].max_length, 2);
  EXPECT_EQ(stats[2].kindless, 1);
  EXPECT_EQ(stats[2].missing, 1);
  EXPECT_EQ(stats[2].present, 1);
}

TEST(SchemaInferenceTest, DuplicateKeysCountOnceWithTheLastEntry) {
  SchemaInferrer inferrer(RecordType::kExample);
  ASSERT_TRUE(inferrer.Observe(ExampleOf({Entry("x", BytesFeature({"a"})), Entry("x", Int64Feature({1}))})).ok());
  EXPECT_EQ(inferrer.Finish()->ToString(), "x: int64 not null");
  EXPECT_EQ(inferrer.stats()[0].present, 1);
}

TEST(SchemaInferenceTest, SequenceExample) {
  SchemaInferrer inferrer(RecordType::kSequenceExample);
  const WireWriter context = Map({Entry("int_feature", Int64Feature({7})), Entry("f", FloatFeature({1, 2}))});
  const WireWriter lists = Map({Entry("int_feature", FeatureListOf({Int64Feature({1, 2}), Int64Feature({3})})),
                                Entry("s", FeatureListOf({BytesFeature({"a"}), BytesFeature({}), WireWriter()})),
                                Entry("empty", FeatureListOf({}))});
  ASSERT_TRUE(inferrer.Observe(WireWriter().MessageField(1, context).MessageField(2, lists)).ok());
  SchemaPtr schema = inferrer.Finish();
  EXPECT_EQ(schema->ToString(),
            "int_feature: int64 not null\nf: list<float32> not null\nint_feature: list<list<int64>> not null\n"
            "s: list<list<utf8>> not null\nempty: null");
  EXPECT_EQ(*schema->field(0)->metadata()->Get(kKindMetadataKey), "context");
  EXPECT_EQ(*schema->field(2)->metadata()->Get(kKindMetadataKey), "feature_list");
  const FeatureStats& s = inferrer.stats()[3];
  EXPECT_TRUE(s.feature_list);
  EXPECT_EQ(s.min_length, 3);
  EXPECT_EQ(s.min_inner_length, 0);
  EXPECT_EQ(s.max_inner_length, 1);
}

TEST(SchemaInferenceTest, ByteArray) {
  SchemaInferrer inferrer(RecordType::kByteArray);
  ASSERT_TRUE(inferrer.Observe("anything").ok());
  EXPECT_EQ(inferrer.Finish()->ToString(), "byteArray: binary not null");
  EXPECT_EQ(inferrer.records(), 1);
}

TEST(KindSummaryTest, MergeMatchesAdds) {
  KindSummary a;
  KindSummary b;
  a.Add(FeatureKind::kInt64List, 1, true);
  b.Add(FeatureKind::kFloatList, 1, true);
  a.Merge(b);
  EXPECT_EQ(a.ColumnType()->ToString(), "float32");
  EXPECT_TRUE(a.scalar());
  EXPECT_EQ(FeatureKindName(FeatureKind::kInt64List), "int64_list");
}

}  // namespace
}  // namespace recflow::example
