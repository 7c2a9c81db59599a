// Tests of DataType, KeyValueMetadata, Field and Schema: ToString, Equals, accessors.
#include <gtest/gtest.h>

#include "recflow/columnar/schema.h"
#include "recflow/columnar/type.h"

namespace recflow {
namespace {

TEST(TypeTest, PrimitiveNamesAndWidths) {
  EXPECT_EQ(null()->ToString(), "null");
  EXPECT_EQ(boolean()->ToString(), "bool");
  EXPECT_EQ(int8()->ToString(), "int8");
  EXPECT_EQ(uint64()->ToString(), "uint64");
  EXPECT_EQ(float32()->ToString(), "float32");
  EXPECT_EQ(utf8()->ToString(), "utf8");
  EXPECT_EQ(binary()->ToString(), "binary");
  EXPECT_EQ(boolean()->bit_width(), 1);
  EXPECT_EQ(int16()->bit_width(), 16);
  EXPECT_EQ(float64()->bit_width(), 64);
  EXPECT_EQ(utf8()->bit_width(), 0);
  EXPECT_TRUE(uint32()->is_integer());
  EXPECT_FALSE(float32()->is_integer());
  EXPECT_TRUE(float64()->is_floating());
  EXPECT_TRUE(utf8()->is_binary_like());
  EXPECT_TRUE(list(int64())->is_nested());
  EXPECT_FALSE(binary()->is_nested());
  EXPECT_TRUE(boolean()->is_primitive());
  EXPECT_TRUE(uint16()->is_primitive());
  EXPECT_TRUE(float64()->is_primitive());
  EXPECT_TRUE(utf8()->is_primitive());
  EXPECT_FALSE(null()->is_primitive());
  EXPECT_FALSE(list(int64())->is_primitive());
  EXPECT_FALSE(struct_({Field::Make("a", int64())})->is_primitive());
  EXPECT_EQ(int64()->id(), TypeId::kInt64);
  EXPECT_EQ(int64(), int64());  // singletons
}

TEST(TypeTest, NestedToStringAndAccessors) {
  auto l = list(float32());
  EXPECT_EQ(l->ToString(), "list<float32>");
  ASSERT_EQ(l->fields().size(), 1u);
  EXPECT_EQ(l->fields()[0]->name(), "item");
  EXPECT_TRUE(l->fields()[0]->nullable());
  EXPECT_TRUE(l->value_type()->Equals(*float32()));
  EXPECT_EQ(list(list(int64()))->ToString(), "list<list<int64>>");
  EXPECT_EQ(list(Field::Make("item", int64(), false))->ToString(), "list<int64 not null>");
  auto s = struct_({Field::Make("a", int64()), Field::Make("b", utf8(), false)});
  EXPECT_EQ(s->ToString(), "struct<a: int64, b: utf8 not null>");
  EXPECT_EQ(s->fields().size(), 2u);
  EXPECT_EQ(s->value_type(), nullptr);
}

TEST(TypeTest, Equals) {
  EXPECT_TRUE(list(int64())->Equals(*list(int64())));
  EXPECT_FALSE(list(int64())->Equals(*list(int32())));
  EXPECT_FALSE(list(int64())->Equals(*list(Field::Make("item", int64(), false))));
  EXPECT_FALSE(list(int64())->Equals(*list(Field::Make("element", int64()))));
  auto s1 = struct_({Field::Make("a", int64())});
  EXPECT_TRUE(s1->Equals(*struct_({Field::Make("a", int64())})));
  EXPECT_FALSE(s1->Equals(*struct_({Field::Make("b", int64())})));
  EXPECT_FALSE(s1->Equals(*struct_({Field::Make("a", int64()), Field::Make("b", int64())})));
  EXPECT_FALSE(int64()->Equals(*uint64()));
  EXPECT_FALSE(binary()->Equals(*utf8()));
  // Metadata does not take part in type equality.
  auto md = std::make_shared<KeyValueMetadata>();
  md->Set("k", "v");
  EXPECT_TRUE(list(Field::Make("item", int64(), true, md))->Equals(*list(int64())));
}

TEST(KeyValueMetadataTest, GetSetEquals) {
  KeyValueMetadata md;
  EXPECT_EQ(md.size(), 0);
  EXPECT_FALSE(md.Get("a").has_value());
  md.Set("a", "1");
  md.Set("b", "2");
  md.Set("a", "3");
  EXPECT_EQ(md.size(), 2);
  EXPECT_EQ(md.Get("a"), "3");
  EXPECT_EQ(md.keys(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(md.values(), (std::vector<std::string>{"3", "2"}));
  EXPECT_EQ(md.key(1), "b");
  EXPECT_EQ(md.value(1), "2");
  EXPECT_EQ(md.ToString(), "{a: 3, b: 2}");
  KeyValueMetadata other({{"b", "2"}, {"a", "3"}});
  EXPECT_TRUE(md.Equals(other));
  other.Set("b", "x");
  EXPECT_FALSE(md.Equals(other));
}

TEST(FieldTest, MakeWithAndEquals) {
  auto f = Field::Make("x", int64());
  EXPECT_EQ(f->name(), "x");
  EXPECT_TRUE(f->nullable());
  EXPECT_EQ(f->metadata(), nullptr);
  EXPECT_EQ(f->ToString(), "x: int64");
  auto g = f->WithNullable(false);
  EXPECT_EQ(g->ToString(), "x: int64 not null");
  EXPECT_FALSE(f->Equals(*g));
  EXPECT_EQ(f->WithType(utf8())->ToString(), "x: utf8");
  EXPECT_EQ(f->WithName("y")->ToString(), "y: int64");
  auto md = std::make_shared<KeyValueMetadata>(std::vector<std::pair<std::string, std::string>>{{"tfrecord.kind", "context"}});
  auto h = f->WithMetadata(md);
  EXPECT_EQ(h->metadata()->Get("tfrecord.kind"), "context");
  EXPECT_TRUE(f->Equals(*h));
  EXPECT_FALSE(f->Equals(*h, /*check_metadata=*/true));
  EXPECT_TRUE(f->Equals(*f->WithMetadata(std::make_shared<KeyValueMetadata>()), true));  // null == empty
}

TEST(SchemaTest, LookupToStringEquals) {
  auto s = Schema::Make({Field::Make("a", int64(), false), Field::Make("b", list(utf8())), Field::Make("a", float32())});
  EXPECT_EQ(s->num_fields(), 3);
  EXPECT_EQ(s->field(1)->name(), "b");
  EXPECT_EQ(s->GetFieldIndex("a"), 0);
  EXPECT_EQ(s->GetFieldIndex("b"), 1);
  EXPECT_EQ(s->GetFieldIndex("zz"), -1);
  EXPECT_EQ(s->ToString(), "a: int64 not null\nb: list<utf8>\na: float32");
  auto same = Schema::Make(s->fields());
  EXPECT_TRUE(s->Equals(*same));
  auto md = std::make_shared<KeyValueMetadata>();
  md->Set("origin", "test");
  auto with_md = s->WithMetadata(md);
  EXPECT_TRUE(s->Equals(*with_md));
  EXPECT_FALSE(s->Equals(*with_md, true));
  EXPECT_EQ(with_md->metadata()->Get("origin"), "test");
  EXPECT_FALSE(s->Equals(*Schema::Make({Field::Make("a", int64(), false)})));
}

}  // namespace
}  // namespace recflow
