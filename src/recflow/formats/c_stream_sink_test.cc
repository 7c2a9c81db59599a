// CStreamSink: the queue's bound in batches and in bytes holds Emit back (seen through its on_full hook, no timing),
// batches come out in emitted order, Cancel wakes a waiting Emit, Abort drops what is queued, Close ends the stream.
#include "recflow/formats/c_stream_sink.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>
#include <vector>

#include "recflow/formats/c_stream_test_util_internal.h"

namespace recflow::testing {
namespace {

// Emits batches 0..n-1 on a thread of its own, counting the Emits that returned, and resolves
// `first_wait` the first time Emit finds the queue full (the sink's on_full hook).
class Producer {
 public:
  explicit Producer(CStreamOptions options) : sink(NumberSchema(), WithHook(std::move(options))) {}
  ~Producer() {
    if (thread_.joinable()) thread_.join();
  }

  void Start(int64_t n, int64_t rows = 1) {
    thread_ = std::thread([this, n, rows] {
      for (int64_t i = 0; i < n; ++i) {
        status = Feed(&sink, Numbers(i, rows));
        if (!status.ok()) return;
        emitted.fetch_add(1);
      }
      sink.Close(Status::OK());
    });
  }
  void Join() { thread_.join(); }

  CStreamSink sink;
  std::promise<void> first_wait;
  std::atomic<int64_t> emitted{0};
  Status status;

 private:
  CStreamOptions WithHook(CStreamOptions options) {
    options.on_full = [this] {
      if (!waited_.exchange(true)) first_wait.set_value();
    };
    return options;
  }
  std::atomic<bool> waited_{false};
  std::thread thread_;
};

std::vector<int64_t> PopAll(CStreamSink& sink) {
  std::vector<int64_t> values;
  while (true) {
    auto batch = sink.Pop();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) return values;
    values.push_back(ValueOf(**batch));
  }
}

// Emits `n` batches of `rows` rows under `options`: the first time Emit waits, `queued` Emits
// have returned (and none since, as nothing was popped); then all come out in order.
void ExpectEmitWaitsWith(CStreamOptions options, int64_t n, int64_t rows, int64_t queued) {
  Producer producer(std::move(options));
  producer.Start(n, rows);
  producer.first_wait.get_future().get();
  EXPECT_EQ(producer.emitted.load(), queued);
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < n; ++i) expected.push_back(i);
  EXPECT_EQ(PopAll(producer.sink), expected);
  producer.Join();
  EXPECT_TRUE(producer.status.ok()) << producer.status.ToString();
}

TEST(CStreamSinkTest, EmitWaitsWhileTheQueueHoldsMaxBatches) {
  CStreamOptions options;
  options.max_batches = 2;
  ExpectEmitWaitsWith(options, /*n=*/6, /*rows=*/1, /*queued=*/2);
}

TEST(CStreamSinkTest, EmitWaitsWhileAnotherBatchWouldPassMaxBytes) {
  CStreamOptions options;
  options.max_batches = 100;
  options.max_bytes = 2 * 100 * 8;  // two batches of 100 int64 values (no validity buffer)
  ExpectEmitWaitsWith(options, /*n=*/5, /*rows=*/100, /*queued=*/2);
}

TEST(CStreamSinkTest, ABatchLargerThanMaxBytesStillFlowsOneAtATime) {
  CStreamOptions options;
  options.max_bytes = 1;
  ExpectEmitWaitsWith(options, /*n=*/3, /*rows=*/1, /*queued=*/1);
}

TEST(CStreamSinkTest, CancelWakesAWaitingEmitWithCancelled) {
  CStreamOptions options;
  options.max_batches = 1;
  Producer producer(options);
  producer.Start(1000);
  producer.first_wait.get_future().get();
  producer.sink.Cancel();
  producer.Join();
  EXPECT_EQ(producer.status.code(), StatusCode::kCancelled);
  EXPECT_EQ(producer.status.message(), "the C stream's consumer released it");
  EXPECT_EQ(producer.emitted.load(), 1);
}

TEST(CStreamSinkTest, AbortDropsTheQueuedBatchesAndTheCloseErrorFollows) {
  CStreamSink sink(NumberSchema(), CStreamOptions::Defaults());
  ASSERT_TRUE(Feed(&sink, Numbers(0)).ok());
  ASSERT_TRUE(Feed(&sink, Numbers(1)).ok());
  auto first = sink.Pop();
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(ValueOf(**first), 0);
  ASSERT_TRUE(sink.Abort().ok());
  ASSERT_TRUE(sink.Abort().ok());
  const Status refused = Feed(&sink, Numbers(2));
  EXPECT_EQ(refused.code(), StatusCode::kCancelled);
  EXPECT_EQ(refused.message(), "the C stream's output was aborted");
  sink.Close(Status::DataError("bad record").WithRecord(7));
  sink.Close(Status::OK());  // the first close counts
  for (int call = 0; call < 2; ++call) {
    auto next = sink.Pop();
    ASSERT_FALSE(next.ok());
    EXPECT_EQ(next.status().code(), StatusCode::kDataError);
    EXPECT_EQ(next.status().context().record, 7);
  }
}

TEST(CStreamSinkTest, ZeroRowBatchesAreNotPassedOnAndTheEndRepeats) {
  CStreamSink sink(NumberSchema(), CStreamOptions::Defaults());
  ASSERT_TRUE(Feed(&sink, Numbers(0, /*rows=*/0)).ok());
  ASSERT_TRUE(Feed(&sink, Numbers(1)).ok());
  ASSERT_TRUE(Feed(&sink, Numbers(2, /*rows=*/0)).ok());
  sink.Close(Status::OK());
  EXPECT_EQ(PopAll(sink), (std::vector<int64_t>{1}));
  auto again = sink.Pop();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, nullptr);
}

TEST(CStreamSinkTest, OptionsNeedBothBounds) {
  EXPECT_TRUE(CStreamOptions::Defaults().Validate().ok());
  CStreamOptions no_batches;
  no_batches.max_batches = 0;
  EXPECT_EQ(no_batches.Validate().code(), StatusCode::kInvalidArgument);
  CStreamOptions no_bytes;
  no_bytes.max_bytes = 0;
  EXPECT_EQ(no_bytes.Validate().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::testing
