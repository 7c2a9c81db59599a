// GroupingSnapshot bytes: windows (trigger states, panes, flags) and batches read back as written; a state file cut
// short, with bytes after its streams, a bad header or a foreign windows batch is refused naming the file and offset.
#include "recflow/pipeline/window_snapshot.h"

#include <gtest/gtest.h>

#include "recflow/columnar/builder.h"

namespace recflow::pipeline {
namespace {

window::WindowSnapshot Window(int64_t key, window::Millis start, bool closed) {
  window::WindowSnapshot w;
  w.key = key;
  w.window = window::Window{start, start + 10};
  w.trigger = {window::TriggerNodeState{false, true, 3, 1234}, window::TriggerNodeState{true, false, 0, window::kEndOfTime}};
  w.new_elements = closed ? 0 : 2;
  w.min_time = closed ? window::kEndOfTime : start + 1;
  w.max_time = closed ? window::kMinTime : start + 7;
  w.last = window::PaneInfo{window::PaneTiming::kLate, 4, 2, false, closed};
  w.has_pane = true;
  w.closed = closed;
  w.late_for_output = !closed;
  return w;
}

Result<GroupingSnapshot> Sample() {
  GroupingSnapshot snapshot;
  snapshot.watermark = 25;
  snapshot.processing_time = 7;
  snapshot.output_watermark = 19;
  NumericBuilder<int64_t> keys;
  RETURN_NOT_OK(keys.Append(42));
  RETURN_NOT_OK(keys.Append(-1));
  ASSIGN_OR_RETURN(auto key_column, keys.Finish());
  ASSIGN_OR_RETURN(snapshot.keys, RecordBatch::Make(Schema::Make({Field::Make("k", int64())}), 2, {key_column}));
  ASSIGN_OR_RETURN(auto columns, WindowSnapshotColumns({Window(0, 10, false), Window(1, 0, true)}));
  ASSIGN_OR_RETURN(snapshot.windows, RecordBatch::Make(Schema::Make(WindowSnapshotFields()), 2, std::move(columns)));
  return snapshot;
}

TEST(WindowSnapshotTest, WhatIsEncodedDecodesToTheSameWindowsAndBatches) {
  auto sample = Sample();
  ASSERT_TRUE(sample.ok()) << sample.status().ToString();
  auto bytes = EncodeSnapshot(*sample);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto back = DecodeSnapshot(*bytes, "state-x");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->watermark, 25);
  EXPECT_EQ(back->processing_time, 7);
  EXPECT_EQ(back->output_watermark, 19);
  EXPECT_TRUE(back->keys->Equals(*sample->keys));
  EXPECT_EQ(back->rows, nullptr);
  auto windows = ReadWindowSnapshots(*back->windows);
  ASSERT_TRUE(windows.ok()) << windows.status().ToString();
  ASSERT_EQ(windows->size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const window::WindowSnapshot want = Window(static_cast<int64_t>(i), i == 0 ? 10 : 0, i == 1);
    const window::WindowSnapshot& got = (*windows)[i];
    EXPECT_EQ(got.key, want.key);
    EXPECT_EQ(got.window, want.window);
    EXPECT_EQ(got.slot, -1);
    ASSERT_EQ(got.trigger.size(), want.trigger.size());
    for (size_t n = 0; n < want.trigger.size(); ++n) {
      EXPECT_EQ(got.trigger[n].finished, want.trigger[n].finished);
      EXPECT_EQ(got.trigger[n].on_time_fired, want.trigger[n].on_time_fired);
      EXPECT_EQ(got.trigger[n].count, want.trigger[n].count);
      EXPECT_EQ(got.trigger[n].target, want.trigger[n].target);
    }
    EXPECT_EQ(got.new_elements, want.new_elements);
    EXPECT_EQ(got.min_time, want.min_time);
    EXPECT_EQ(got.max_time, want.max_time);
    EXPECT_EQ(got.last, want.last);
    EXPECT_EQ(got.has_pane, want.has_pane);
    EXPECT_EQ(got.closed, want.closed);
    EXPECT_EQ(got.late_for_output, want.late_for_output);
  }
}

TEST(WindowSnapshotTest, ACutAlteredOrForeignStateIsRefusedNamingTheFileAndTheOffset) {
  auto sample = Sample();
  ASSERT_TRUE(sample.ok());
  auto bytes = EncodeSnapshot(*sample);
  ASSERT_TRUE(bytes.ok());
  const std::string whole((*bytes)->view());
  const int64_t streams = static_cast<int64_t>(whole.find('\n')) + 1;
  struct Case {
    std::string text;
    std::string why;
    int64_t offset;
  };
  for (const Case& c : {Case{whole.substr(0, whole.size() - 9), "cut short", -1},
                        Case{whole + "x", "bytes after the last stream", static_cast<int64_t>(whole.size())},
                        Case{"recflow-state 1 1 2\n", "a bad header line", 16},
                        Case{"garbage", "no header line", 0}}) {
    auto decoded = DecodeSnapshot(Buffer::FromString(c.text), "state-x");
    ASSERT_FALSE(decoded.ok()) << c.why;
    EXPECT_EQ(decoded.status().code(), StatusCode::kDataError);
    EXPECT_NE(decoded.status().message().find(c.why), std::string::npos) << decoded.status().ToString();
    EXPECT_EQ(decoded.status().context().file, "state-x");
    if (c.offset >= 0) EXPECT_EQ(decoded.status().context().offset, c.offset) << c.why;
    if (c.offset < 0) EXPECT_GE(decoded.status().context().offset, streams) << c.why;
  }
  // A windows batch without the snapshot's columns.
  GroupingSnapshot foreign = *sample;
  foreign.windows = sample->keys;
  EXPECT_EQ(ReadWindowSnapshots(*foreign.windows).status().code(), StatusCode::kDataError);
}

}  // namespace
}  // namespace recflow::pipeline
