// Windowed groupings through the Pipeline API: event times from integer ms/µs, timestamp and ISO-8601 columns give
// the same windows; a bad event time fails naming the row; windows need their event-time column.
#include "recflow/pipeline/windowed_grouping.h"

#include <gtest/gtest.h>

#include "recflow/columnar/builder.h"
#include "recflow/pipeline/collect_sink.h"
#include "recflow/pipeline/local_runner.h"

namespace recflow::pipeline {
namespace {

// The window_start column of count-per-window over one column of event times (of `type`), in firing order.
Result<std::vector<int64_t>> WindowStarts(const FieldPtr& field, std::shared_ptr<ArrayData> times, bool micros = false) {
  auto schema = Schema::Make({field});
  ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema, times->length, {times}));
  Pipeline p;
  PCollection rows = p.Create("rows", schema, {batch});
  Windowing windowing{window::WindowingStrategy{window::WindowFn::Fixed(10'000), {}, {}, 0, {}}, field->name(), micros};
  PCollection windowed = p.Window("window", rows, windowing);
  p.CombineGlobally("count", windowed, {Aggregate{"", *BuiltinCombiner("count_all"), "n"}});
  RETURN_NOT_OK(p.status());
  CollectSink out;
  RunOptions options = RunOptions::Defaults();
  options.outputs["count"] = &out;
  ExecContext context;
  context.threads = 2;
  RETURN_NOT_OK(RunPipeline(context, p, options, nullptr).status());
  std::vector<int64_t> starts;
  for (const auto& b : out.TakeBatches()) {
    const int start = b->schema()->GetFieldIndex("window_start");
    for (int64_t i = 0; i < b->num_rows(); ++i) starts.push_back(b->column_data(start)->GetValues<int64_t>(1)[i]);
  }
  return starts;
}

std::shared_ptr<ArrayData> Ints(std::vector<int64_t> values, DataTypePtr type = int64()) {
  NumericBuilder<int64_t> b(std::move(type));
  for (int64_t v : values) EXPECT_TRUE(b.Append(v).ok());
  return *b.Finish();
}

TEST(WindowedGroupingTest, EventTimesOfEveryKindGiveTheSameWindows) {
  const std::vector<int64_t> expected = {-10'000, 0, 10'000};
  EXPECT_EQ(*WindowStarts(Field::Make("t", int64()), Ints({-1, 9'999, 10'000, 0})), expected);
  EXPECT_EQ(*WindowStarts(Field::Make("t", int64()), Ints({-1, 9'999'999, 10'000'000, 0}), true), expected);
  EXPECT_EQ(*WindowStarts(Field::Make("t", timestamp(TimeUnit::kMicro)),
                          Ints({-1, 9'999'999, 10'000'000, 0}, timestamp(TimeUnit::kMicro))),
            expected);
  EXPECT_EQ(*WindowStarts(Field::Make("t", timestamp(TimeUnit::kSecond)), Ints({-1, 9, 10, 0}, timestamp(TimeUnit::kSecond))),
            expected);
  BinaryBuilder text(utf8());
  for (const char* t : {"1969-12-31T23:59:59.999Z", "1970-01-01T00:00:09.999Z", "1970-01-01 00:00:10", "1970-01-01T01:00:00+01:00"}) {
    ASSERT_TRUE(text.Append(t).ok());
  }
  EXPECT_EQ(*WindowStarts(Field::Make("t", utf8()), *text.Finish()), expected);
}

TEST(WindowedGroupingTest, ANullOrUnparsableEventTimeNamesTheRow) {
  NumericBuilder<int64_t> with_null;
  ASSERT_TRUE(with_null.Append(1).ok());
  ASSERT_TRUE(with_null.AppendNull().ok());
  auto null_time = WindowStarts(Field::Make("t", int64(), true), *with_null.Finish());
  ASSERT_FALSE(null_time.ok());
  EXPECT_EQ(null_time.status().context().record, 1);
  EXPECT_NE(null_time.status().ToString().find("event time column 't': null"), std::string::npos) << null_time.status().ToString();

  BinaryBuilder text(utf8());
  ASSERT_TRUE(text.Append("1970-01-01T00:00:00Z").ok());
  ASSERT_TRUE(text.Append("yesterday").ok());
  auto bad_text = WindowStarts(Field::Make("t", utf8()), *text.Finish());
  ASSERT_FALSE(bad_text.ok());
  EXPECT_EQ(bad_text.status().context().record, 1);
  EXPECT_NE(bad_text.status().ToString().find("'yesterday' is not an ISO-8601 time"), std::string::npos);
}

TEST(WindowedGroupingTest, TheEventTimeColumnMustHoldTimes) {
  auto schema = Schema::Make({Field::Make("t", float64())});
  Pipeline p;
  PCollection rows = p.Create("rows", schema, {});
  p.Window("window", rows, Windowing{window::WindowingStrategy{}, "t", false});
  EXPECT_NE(p.status().ToString().find("event time column 't' is float64"), std::string::npos) << p.status().ToString();
  Pipeline q;
  q.Window("window", q.Create("rows", schema, {}), Windowing{window::WindowingStrategy{}, "missing", false});
  EXPECT_NE(q.status().ToString().find("no event time column 'missing'"), std::string::npos) << q.status().ToString();
}

}  // namespace
}  // namespace recflow::pipeline
