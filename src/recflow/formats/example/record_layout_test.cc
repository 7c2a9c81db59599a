// RecordLayout(s), their frames and the Decoder's paths for records laid out or framed as one before them: what
// matches, which layouts are kept, and that every record differing from its predecessor in one key, kind, length,
// field or value decodes (or fails) exactly as it does alone, where the full walk decodes it.
#include "recflow/formats/example/record_layout_internal.h"
#include "recflow/formats/example/record_layouts_internal.h"

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
using testing::ExampleOf;
using testing::FloatFeature;
using testing::Int64Feature;
using testing::Map;

SchemaPtr TestSchema() {
  return Schema::Make({Field::Make("image", list(float32())), Field::Make("label", int64()),
                       Field::Make("name", utf8()), Field::Make("tags", list(int64()))});
}

std::string Base(float pixel = 0.5f, int64_t label = 7) {
  return ExampleOf({Entry("image", FloatFeature({pixel, 1, 2, 3})), Entry("label", Int64Feature({label})),
                    Entry("name", BytesFeature({"ab"})), Entry("tags", Int64Feature({1, 2}))})
      .Take();
}

// Base() with the Feature of `key` replaced by `feature`.
std::string BaseWith(std::string_view key, const WireWriter& feature) {
  std::vector<std::pair<std::string_view, WireWriter>> entries = {{"image", FloatFeature({0.5f, 1, 2, 3})},
                                                                  {"label", Int64Feature({7})},
                                                                  {"name", BytesFeature({"ab"})},
                                                                  {"tags", Int64Feature({1, 2})}};
  WireWriter map;
  for (auto& [k, f] : entries) map.MessageField(1, Entry(k, k == key ? feature : f));
  return WireWriter().MessageField(1, map).Take();
}

// A Feature whose member `kind` (1 bytes, 2 float, 3 int64) is a list of one packed field holding `run`.
WireWriter RunFeature(uint32_t kind, std::string_view run) {
  WireWriter list;
  list.Tag(1, WireType::kLengthDelimited).Varint(run.size()).Raw(run);
  return WireWriter().MessageField(kind, list);
}

// Int64List{1, 2} unpacked: as long as the packed list.
WireWriter UnpackedTags(int64_t first = 1, int64_t second = 2) {
  WireWriter unpacked;
  unpacked.VarintField(1, static_cast<uint64_t>(first)).VarintField(1, static_cast<uint64_t>(second));
  return WireWriter().MessageField(3, unpacked);
}

// The learned layout of `record` in TestSchema's columns, by name.
bool LearnOf(RecordLayout* layout, const std::string& record) {
  const SchemaPtr schema = TestSchema();
  return layout->Learn(wire::SpanOf(record), schema->num_fields(),
                       [&](std::string_view key, size_t) { return schema->GetFieldIndex(key); });
}

// LearnOf(), then the frame of `record` as the first record to match the layout.
bool LearnWithFrame(RecordLayout* layout, const std::string& record) {
  std::vector<wire::Span> lists;
  if (!LearnOf(layout, record) || !layout->Match(wire::SpanOf(record), &lists)) return false;
  layout->LearnFrame(wire::SpanOf(record), lists);
  return true;
}

TEST(RecordLayoutTest, MatchesRecordsWithTheSameKeysAndKindsWhateverTheirLengths) {
  RecordLayout layout;
  std::vector<wire::Span> lists;
  EXPECT_FALSE(layout.Match(wire::SpanOf(Base()), &lists)) << "nothing learned yet";
  ASSERT_TRUE(LearnOf(&layout, Base()));
  ASSERT_EQ(layout.entries().size(), 4u);
  EXPECT_EQ(layout.entries()[1].column, 1);
  EXPECT_EQ(layout.entries()[1].kind, FeatureKind::kInt64List);
  const std::string longer = ExampleOf({Entry("image", FloatFeature({1, 2, 3, 4, 5, 6})),
                                        Entry("label", Int64Feature({300000})), Entry("name", BytesFeature({"abcdef"})),
                                        Entry("tags", Int64Feature({}))})
                                 .Take();
  ASSERT_TRUE(layout.Match(wire::SpanOf(longer), &lists));
  ASSERT_EQ(lists.size(), 4u);
  EXPECT_EQ(lists[0].size(), 2 + 6 * 4) << "image's float_list message: one packed field";

  const std::vector<std::string> others = {
      ExampleOf({Entry("image", FloatFeature({1})), Entry("label", Int64Feature({1})), Entry("name", BytesFeature({"a"}))})
          .Take(),  // an entry fewer
      ExampleOf({Entry("image", FloatFeature({1})), Entry("label", FloatFeature({1})), Entry("name", BytesFeature({"a"})),
                 Entry("tags", Int64Feature({1}))})
          .Take(),  // another kind
      ExampleOf({Entry("image", FloatFeature({1})), Entry("lable", Int64Feature({1})), Entry("name", BytesFeature({"a"})),
                 Entry("tags", Int64Feature({1}))})
          .Take(),  // another key
      ExampleOf({Entry("label", Int64Feature({1})), Entry("image", FloatFeature({1})), Entry("name", BytesFeature({"a"})),
                 Entry("tags", Int64Feature({1}))})
          .Take(),  // another order
      Base() + WireWriter().VarintField(9, 1).Take(),                       // an unknown field in the record
      Base() + WireWriter().MessageField(1, Map({})).Take(),                // features twice
      Base().substr(0, Base().size() - 1),                                  // truncated
  };
  for (size_t i = 0; i < others.size(); ++i) EXPECT_FALSE(layout.Match(wire::SpanOf(others[i]), &lists)) << i;
}

TEST(RecordLayoutTest, ARecordFramedByteForByteLikeTheLearnedOneIsFramedWhateverItsValues) {
  RecordLayout layout;
  const std::string base = Base();
  ASSERT_TRUE(LearnOf(&layout, base));
  EXPECT_FALSE(layout.Framed(wire::SpanOf(base))) << "a layout has no frame before a record matched it";
  ASSERT_TRUE(LearnWithFrame(&layout, base));
  const std::vector<RecordFrame::Hole>& holes = layout.frame().holes();
  ASSERT_EQ(holes.size(), 4u);
  for (const RecordFrame::Hole& hole : holes) EXPECT_TRUE(hole.run) << "every list is one packed field";
  const wire::Span span = wire::SpanOf(base);
  EXPECT_EQ(holes[0].Run(span).size(), 16) << "image: 4 floats";
  EXPECT_EQ(holes[1].Run(span).size(), 1) << "label: one varint";
  EXPECT_EQ(holes[2].Run(span).view(), "ab") << "name: one bytes value";
  EXPECT_EQ(holes[3].Run(span).size(), 2) << "tags: two varints";
  EXPECT_EQ(holes[3].List(span).size(), 4) << "tags' list: the packed field's tag and length, then the run";

  const std::vector<std::string> framed = {
      Base(1.5f, 8),                                 // other values
      BaseWith("tags", RunFeature(3, "\xac\x02")),   // one varint (300) where two were
      BaseWith("label", RunFeature(3, "\x80")),      // a malformed varint: for the column to find
      BaseWith("name", BytesFeature({"\xff\xfe"})),  // not UTF-8: for the column to find
  };
  std::vector<wire::Span> lists;
  for (size_t i = 0; i < framed.size(); ++i) EXPECT_TRUE(layout.Framed(wire::SpanOf(framed[i]))) << i;

  struct Other {
    std::string record;
    bool same_layout;  // RecordLayout::Match still matches it
  };
  const std::vector<Other> others = {
      {BaseWith("image", FloatFeature({1, 2})), true},                   // a length
      {BaseWith("label", Int64Feature({300})), true},                    // a length inside a scalar's list
      {BaseWith("tags", UnpackedTags()), true},                          // unpacked, as long as packed
      {BaseWith("label", FloatFeature({7})), false},                     // a type tag (and a length)
      {BaseWith("label", RunFeature(1, "\x07")), false},                 // a type tag alone
      {ExampleOf({Entry("image", FloatFeature({0.5f, 1, 2, 3})), Entry("lable", Int64Feature({7})),
                  Entry("name", BytesFeature({"ab"})), Entry("tags", Int64Feature({1, 2}))})
           .Take(),
       false},                                                           // a key of the same length
      {Base() + WireWriter().VarintField(9, 1).Take(), false},           // a field more
  };
  for (size_t i = 0; i < others.size(); ++i) {
    EXPECT_FALSE(layout.Framed(wire::SpanOf(others[i].record))) << i;
    EXPECT_EQ(layout.Match(wire::SpanOf(others[i].record), &lists), others[i].same_layout) << i;
  }
}

TEST(RecordLayoutTest, AListOfUnpackedValuesIsAHoleWhole) {
  RecordLayout layout;
  const std::string unpacked = BaseWith("tags", UnpackedTags());
  ASSERT_TRUE(LearnWithFrame(&layout, unpacked));
  const RecordFrame::Hole& tags = layout.frame().holes()[3];
  EXPECT_FALSE(tags.run);
  EXPECT_EQ(tags.List(wire::SpanOf(unpacked)).size(), 4);
  EXPECT_TRUE(layout.Framed(wire::SpanOf(BaseWith("tags", UnpackedTags(3, 4)))));
  EXPECT_TRUE(layout.Framed(wire::SpanOf(Base()))) << "a packed list as long: the list is all hole (TakeList checks it)";
  EXPECT_FALSE(layout.Framed(wire::SpanOf(BaseWith("tags", Int64Feature({1, 2, 3}))))) << "a longer list";
}

TEST(RecordLayoutTest, RecordsThatAreNotPlainTeachNoLayout) {
  RecordLayout layout;
  const std::string twice =
      ExampleOf({Entry("label", Int64Feature({1})), Entry("label", Int64Feature({2}))}).Take();
  EXPECT_FALSE(LearnOf(&layout, twice)) << "a column named twice";
  const std::string unknown = ExampleOf({Entry("label", Int64Feature({1})), Entry("other", Int64Feature({2}))}).Take();
  EXPECT_FALSE(LearnOf(&layout, unknown)) << "a key that names no column";
  WireWriter two;
  two.MessageField(3, WireWriter().PackedVarints(1, {1})).MessageField(2, WireWriter().PackedFloats(1, {1}));
  const std::string two_members = ExampleOf({Entry("label", two)}).Take();
  EXPECT_FALSE(LearnOf(&layout, two_members)) << "a Feature with two members";
  std::vector<wire::Span> lists;
  ASSERT_TRUE(LearnWithFrame(&layout, Base()));
  EXPECT_FALSE(LearnOf(&layout, twice));
  EXPECT_FALSE(layout.Match(wire::SpanOf(Base()), &lists)) << "a failed Learn leaves no layout";
  EXPECT_FALSE(layout.Framed(wire::SpanOf(Base()))) << "nor a frame";
}

// Learns the layout of `record` into `layouts`, in TestSchema's columns.
bool LearnInto(RecordLayouts* layouts, const std::string& record) {
  const SchemaPtr schema = TestSchema();
  return layouts->Learn(wire::SpanOf(record), schema->num_fields(),
                        [&](std::string_view key, size_t) { return schema->GetFieldIndex(key); });
}

// The keys of the layout `record` matches in `layouts`, joined ("" when it matches none), then
// "(framed)" when it has the layout's frame too.
std::string MatchedKeys(RecordLayouts* layouts, const std::string& record) {
  std::vector<wire::Span> lists;
  bool framed = false;
  const RecordLayout* layout = layouts->Match(wire::SpanOf(record), &lists, &framed);
  std::string keys;
  for (const auto& entry : layout ? layout->entries() : std::vector<RecordLayout::Entry>{}) keys += entry.key + ",";
  return keys + (layout && framed ? "(framed)" : "");
}

// Base() with `label` left out: a second layout.
std::string NoLabel(float pixel = 0.5f) {
  return ExampleOf({Entry("image", FloatFeature({pixel, 1})), Entry("name", BytesFeature({"ab"})),
                    Entry("tags", Int64Feature({1, 2}))})
      .Take();
}

TEST(RecordLayoutsTest, RecordsAlternatingBetweenTwoLayoutsEachMatchTheirOwn) {
  RecordLayouts layouts;
  EXPECT_EQ(MatchedKeys(&layouts, Base()), "") << "nothing learned yet";
  ASSERT_TRUE(LearnInto(&layouts, Base()));
  EXPECT_EQ(MatchedKeys(&layouts, NoLabel()), "") << "the other layout is not learned yet";
  ASSERT_TRUE(LearnInto(&layouts, NoLabel()));
  EXPECT_EQ(layouts.size(), 2);
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE("round " + std::to_string(i));
    const std::string framed = i == 0 ? "" : "(framed)";  // each layout's first match teaches its frame
    EXPECT_EQ(MatchedKeys(&layouts, Base(static_cast<float>(i), i)), "image,label,name,tags," + framed);
    EXPECT_EQ(MatchedKeys(&layouts, NoLabel(static_cast<float>(i))), "image,name,tags," + framed);
  }
  EXPECT_EQ(MatchedKeys(&layouts, NoLabel()), "image,name,tags,(framed)") << "the same layout twice in a row";
  EXPECT_EQ(MatchedKeys(&layouts, Base(1, 300)), "image,label,name,tags,") << "another length: laid out, not framed";
}

TEST(RecordLayoutsTest, ANewLayoutReplacesTheOneMatchedLeastRecently) {
  // Five layouts; the first four fill the set.
  const std::vector<std::string> records = {
      Base(),
      NoLabel(),
      ExampleOf({Entry("image", FloatFeature({1})), Entry("label", Int64Feature({1}))}).Take(),
      ExampleOf({Entry("label", Int64Feature({1})), Entry("name", BytesFeature({"x"}))}).Take(),
      ExampleOf({Entry("name", BytesFeature({"x"})), Entry("tags", Int64Feature({1}))}).Take(),
  };
  RecordLayouts layouts;
  for (int i = 0; i < RecordLayouts::kMaxLayouts; ++i) ASSERT_TRUE(LearnInto(&layouts, records[static_cast<size_t>(i)]));
  ASSERT_EQ(layouts.size(), RecordLayouts::kMaxLayouts);
  // Layout 1 is now the one matched least recently (0, 2 and 3 matched after it was learned).
  for (size_t i : {0u, 2u, 3u}) EXPECT_NE(MatchedKeys(&layouts, records[i]), "") << i;
  ASSERT_TRUE(LearnInto(&layouts, records[4]));
  EXPECT_EQ(layouts.size(), RecordLayouts::kMaxLayouts);
  EXPECT_EQ(MatchedKeys(&layouts, records[1]), "") << "replaced";
  for (size_t i : {0u, 2u, 3u, 4u}) EXPECT_NE(MatchedKeys(&layouts, records[i]), "") << i;
}

TEST(RecordLayoutsTest, ARecordThatIsNotPlainDropsNoLayout) {
  RecordLayouts layouts;
  ASSERT_TRUE(LearnInto(&layouts, Base()));
  const std::string twice = ExampleOf({Entry("label", Int64Feature({1})), Entry("label", Int64Feature({2}))}).Take();
  EXPECT_FALSE(LearnInto(&layouts, twice));
  EXPECT_EQ(layouts.size(), 1);
  EXPECT_EQ(MatchedKeys(&layouts, Base()), "image,label,name,tags,");
}

TEST(RecordLayoutsTest, AfterManyRecordsMatchingNoneOnlyTheLikeliestLayoutIsTriedUntilOneMatches) {
  RecordLayouts layouts;
  ASSERT_TRUE(LearnInto(&layouts, Base()));
  ASSERT_TRUE(LearnInto(&layouts, NoLabel()));  // learned last: the likeliest
  const std::string other = ExampleOf({Entry("image", FloatFeature({1}))}).Take();
  for (int i = 0; i < RecordLayouts::kLostAfter; ++i) {
    EXPECT_FALSE(layouts.lost()) << i;
    EXPECT_EQ(MatchedKeys(&layouts, other), "");
  }
  EXPECT_TRUE(layouts.lost());
  EXPECT_EQ(MatchedKeys(&layouts, Base()), "") << "lost: Base's layout is not tried";
  EXPECT_EQ(MatchedKeys(&layouts, NoLabel()), "image,name,tags,");
  EXPECT_FALSE(layouts.lost()) << "a record matched";
  EXPECT_EQ(MatchedKeys(&layouts, Base()), "image,label,name,tags,");
  EXPECT_EQ(MatchedKeys(&layouts, Base()), "image,label,name,tags,(framed)");
}

// Decodes `records` with one decoder, a batch per record, and each record alone with a fresh decoder
// (which always takes the full walk): statuses and rows must agree.
void ExpectSameAsAlone(const std::vector<std::string>& records, const SchemaPtr& schema = TestSchema()) {
  auto shared = Decoder::Make(schema, RecordType::kExample);
  ASSERT_TRUE(shared.ok());
  for (size_t i = 0; i < records.size(); ++i) {
    auto alone = Decoder::Make(schema, RecordType::kExample);
    ASSERT_TRUE(alone.ok());
    const Status expected = (*alone)->Append(records[i]);
    const Status got = (*shared)->Append(records[i]);
    EXPECT_EQ(got.ToString(), expected.ToString()) << "record " << i;
    auto want = (*alone)->Finish();
    auto have = (*shared)->Finish();
    ASSERT_TRUE(want.ok() && have.ok());
    ASSERT_TRUE((*have)->ValidateFull().ok()) << "record " << i;
    for (int c = 0; c < (*want)->num_columns(); ++c) {
      EXPECT_EQ(ArrayToString(*(*have)->column_data(c)), ArrayToString(*(*want)->column_data(c)))
          << "record " << i << ", column " << c;
    }
  }
}

TEST(RecordLayoutDecoderTest, ARecordDifferingFromItsPredecessorInOneKeyKindOrLengthDecodesAsAlone) {
  const auto with = BaseWith;
  WireWriter bad_varint;
  bad_varint.Tag(1, WireType::kLengthDelimited).Varint(1).Raw("\x80");
  WireWriter unpacked;
  unpacked.VarintField(1, 5).VarintField(1, 6);
  WireWriter feature_with_unknown = Int64Feature({7});
  feature_with_unknown.VarintField(9, 1);
  const std::vector<std::string> variants = {
      Base(1.5f, 8),                                                       // same layout, other values
      with("image", FloatFeature({1, 2})),                                 // a length
      with("image", RunFeature(2, "\x01\x02\x03")),                        // a packed float run of 3 bytes
      with("label", Int64Feature({300000000000})),                         // a length inside a scalar's list
      with("label", FloatFeature({7})),                                    // a kind: no conversion (TypeError)
      with("label", Int64Feature({7, 8})),                                 // two values in a scalar column
      with("label", Int64Feature({})),                                     // an empty scalar: null
      with("tags", WireWriter().MessageField(3, bad_varint)),              // a malformed packed varint
      with("tags", WireWriter().MessageField(3, unpacked)),                // unpacked values: the same layout
      with("name", BytesFeature({"\xff"})),                                // not UTF-8 in a utf8 column
      with("name", BytesFeature({"a", "b"})),                              // two values in a scalar column
      with("label", feature_with_unknown),                                 // an unknown field in the Feature
      with("label", WireWriter()),                                         // a Feature with no member: null
      ExampleOf({Entry("image", FloatFeature({1})), Entry("label", Int64Feature({1})), Entry("name", BytesFeature({"x"})),
                 Entry("tag", Int64Feature({1}))})
          .Take(),                                                         // a key: tags missing
      ExampleOf({Entry("image", FloatFeature({1})), Entry("name", BytesFeature({"x"})), Entry("label", Int64Feature({1})),
                 Entry("tags", Int64Feature({1}))})
          .Take(),                                                         // an order
      ExampleOf({Entry("image", FloatFeature({1})), Entry("label", Int64Feature({1})), Entry("name", BytesFeature({"x"})),
                 Entry("tags", Int64Feature({1})), Entry("label", Int64Feature({2}))})
          .Take(),                                                         // a column again: the last wins
      Base().substr(0, Base().size() - 3),                                 // truncated
      Base() + std::string("\x0a\x02\x0a\x00", 4),                         // features twice (merged)
  };
  for (size_t i = 0; i < variants.size(); ++i) {
    // A decoder of its own per variant (a record that is not plain makes a decoder stop learning for
    // a while): learned from Base(), matched by the second Base(); the variant follows a record of
    // Base's layout, and a Base() follows the variant.
    SCOPED_TRACE("variant " + std::to_string(i));
    ExpectSameAsAlone({Base(), Base(0.25f, 3), variants[i], variants[i], Base()});
  }
  for (size_t i = 0; i < variants.size(); ++i) {
    // Alternating with Base() and with a second layout (a plain variant is learned beside Base's and
    // matched from its second time on): each decodes as alone whichever layout its record matches.
    SCOPED_TRACE("alternating variant " + std::to_string(i));
    ExpectSameAsAlone({Base(), variants[i], Base(0.25f, 3), variants[i], NoLabel(), variants[i], Base(), NoLabel(),
                       variants[i], Base()});
  }
}

TEST(RecordLayoutDecoderTest, ARecordFramedLikeItsPredecessorDecodesAsAloneWhateverItsValues) {
  // A 2-byte label run (300), so that a run of two 1-byte varints keeps the frame.
  const std::string base = BaseWith("label", RunFeature(3, "\xac\x02"));
  const std::string nan(16, '\xff');
  const std::vector<std::string> variants = {
      BaseWith("label", RunFeature(3, "\xad\x02")),  // another value
      BaseWith("label", RunFeature(3, "\x01\x02")),  // two values in a scalar column
      BaseWith("label", RunFeature(3, "\x80\x80")),  // a malformed packed varint
      BaseWith("tags", RunFeature(3, "\xac\x02")),   // one value where two were
      BaseWith("tags", RunFeature(3, "\x02\x80")),   // a malformed packed varint
      BaseWith("name", BytesFeature({"\xff\xfe"})),  // not UTF-8 in a utf8 column
      BaseWith("image", RunFeature(2, nan)),         // NaNs
  };
  const std::string base_framed = BaseWith("label", RunFeature(3, "\xae\x02"));
  for (size_t i = 0; i < variants.size(); ++i) {
    SCOPED_TRACE("variant " + std::to_string(i));
    ExpectSameAsAlone({base, base_framed, variants[i], variants[i], base});
  }
  // Learned with unpacked tags, whose list is all hole: lists as long, packed or not, well-formed or not.
  const std::string unpacked = BaseWith("tags", UnpackedTags());
  ExpectSameAsAlone({unpacked, BaseWith("tags", UnpackedTags(3, 4)), Base(), BaseWith("tags", RunFeature(3, "\x02\x80")),
                     BaseWith("tags", UnpackedTags(300, 4)), unpacked});
}

TEST(RecordLayoutDecoderTest, AFramedRecordInColumnsThatConvertItsValuesDecodesAsAlone) {
  // No run is copied as it stands: float64 widens, uint8 is range-checked, int32 narrows.
  const SchemaPtr schema = Schema::Make({Field::Make("image", list(float64())), Field::Make("label", uint8()),
                                         Field::Make("name", binary()), Field::Make("tags", list(int32()))});
  const std::string base = BaseWith("label", RunFeature(3, "\xc8\x01"));  // 200
  ExpectSameAsAlone({base, base, BaseWith("label", RunFeature(3, "\xac\x02")),  // 300: out of range
                     BaseWith("tags", RunFeature(3, "\xac\x02")), Base(0.25f, 3), Base(0.75f, 4)},
                    schema);
}

}  // namespace
}  // namespace recflow::example
