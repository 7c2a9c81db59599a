// The stage executor's contract with sinks: Consume on worker threads with their own local state, Merge and Emit in
// input order, Process before Emit, Drain once at the end, the first error in input order named by the sink's step.
#include "recflow/pipeline/stage_executor.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include "recflow/columnar/builder.h"
#include "recflow/formats/batch_source.h"

namespace recflow::pipeline {
namespace {

// Batches of one int64 column; batch i holds the single value i.
std::unique_ptr<Source> NumberedBatches(int64_t n) {
  auto schema = Schema::Make({Field::Make("i", int64())});
  auto batches = std::make_shared<std::vector<std::shared_ptr<RecordBatch>>>();
  for (int64_t i = 0; i < n; ++i) {
    Int64Builder builder;
    EXPECT_TRUE(builder.Append(i).ok());
    batches->push_back(*RecordBatch::Make(schema, 1, {*builder.Finish()}));
  }
  return MakeBatchSource("numbers", schema, batches);
}

int64_t ValueOf(const RecordBatch& batch) { return batch.column_data(0)->GetValues<int64_t>(1)[0]; }

// Records what the executor asks of it; fails Merge at `fail_at` when set.
class RecordingSink final : public Sink {
 public:
  struct Local final : SinkLocalState {
    std::thread::id owner = std::this_thread::get_id();
  };
  struct Partial final : SinkPartial {
    int64_t value = -1;
    bool processed = false;
  };

  explicit RecordingSink(int64_t fail_at = -1) : fail_at_(fail_at) {}

  Result<std::unique_ptr<SinkLocalState>> NewLocalState() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++locals_made_;
    return std::unique_ptr<SinkLocalState>(new Local());
  }
  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState* local,
                                                const std::shared_ptr<RecordBatch>& batch) const override {
    if (local == nullptr || static_cast<Local*>(local)->owner != std::this_thread::get_id()) {
      return Status::Internal("a local state used on another thread than the one it was made on");
    }
    auto partial = std::make_unique<Partial>();
    partial->value = ValueOf(*batch);
    return std::unique_ptr<SinkPartial>(std::move(partial));
  }
  Status Merge(SinkPartial* partial) override {
    const int64_t value = static_cast<Partial*>(partial)->value;
    if (value == fail_at_) return Status::IOError("disk full").WithRecord(value);
    merged.push_back(value);
    return Status::OK();
  }
  Status Process(SinkPartial* partial) const override {
    static_cast<Partial*>(partial)->processed = true;
    return Status::OK();
  }
  Status Emit(SinkPartial* partial) override {
    auto* p = static_cast<Partial*>(partial);
    if (!p->processed) return Status::Internal("emitted before it was processed");
    emitted.push_back(p->value);
    return Status::OK();
  }
  Result<std::unique_ptr<SinkPartial>> Drain() override {
    ++drains;
    auto rest = std::make_unique<Partial>();
    rest->value = 1'000'000;
    return std::unique_ptr<SinkPartial>(std::move(rest));
  }

  std::vector<int64_t> merged;
  std::vector<int64_t> emitted;
  int drains = 0;
  int locals_made() const { return locals_made_; }

 private:
  int64_t fail_at_;
  mutable std::mutex mutex_;
  mutable int locals_made_ = 0;
};

// Feeds every unit's batch to each sink, the odd ones only to the second when there are two.
class FeedAll final : public StageProgram {
 public:
  Result<std::unique_ptr<UnitState>> Process(const UnitInfo&, DecodedUnit decoded, SinkFeed& feed) override {
    RETURN_NOT_OK(feed.Feed(0, decoded.batch));
    if (two_sinks && ValueOf(*decoded.batch) % 2 == 1) RETURN_NOT_OK(feed.Feed(1, decoded.batch));
    return std::unique_ptr<UnitState>();
  }
  Status Assign(const UnitInfo&, UnitState*) override { return Status::OK(); }
  void OnSkipped(size_t, const SkippedRecord&) override {}
  bool two_sinks = false;
};

TEST(StageExecutorTest, SinksMergeAndEmitInInputOrderAndDrainOnce) {
  constexpr int64_t kUnits = 400;
  auto source = NumberedBatches(kUnits);
  RecordingSink all, odd;
  FeedAll program;
  program.two_sinks = true;
  ExecContext context;
  context.threads = 4;
  auto stats = RunStage(context, {source.get()}, {{&all, "all"}, {&odd, "odd"}}, &program, StageOptions());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  std::vector<int64_t> expected_all, expected_odd;
  for (int64_t i = 0; i < kUnits; ++i) {
    expected_all.push_back(i);
    if (i % 2 == 1) expected_odd.push_back(i);
  }
  EXPECT_EQ(all.merged, expected_all);
  EXPECT_EQ(odd.merged, expected_odd);
  expected_all.push_back(1'000'000);  // the drained partial, emitted last
  expected_odd.push_back(1'000'000);
  EXPECT_EQ(all.emitted, expected_all);
  EXPECT_EQ(odd.emitted, expected_odd);
  EXPECT_EQ(all.drains, 1);
  EXPECT_GE(all.locals_made(), 1);
  EXPECT_LE(all.locals_made(), 64);  // one per worker thread, not one per unit
}

// Feeds each unit's value plus one, in a column it builds (allocated while the unit is processed).
class AddOne final : public StageProgram {
 public:
  Result<std::unique_ptr<UnitState>> Process(const UnitInfo&, DecodedUnit decoded, SinkFeed& feed) override {
    Int64Builder builder;
    RETURN_NOT_OK(builder.Append(ValueOf(*decoded.batch) + 1));
    ASSIGN_OR_RETURN(auto column, builder.Finish());
    ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(decoded.batch->schema(), 1, {column}));
    RETURN_NOT_OK(feed.Feed(0, batch));
    return std::unique_ptr<UnitState>();
  }
  Status Assign(const UnitInfo&, UnitState*) override { return Status::OK(); }
  void OnSkipped(size_t, const SkippedRecord&) override {}
};

TEST(StageExecutorTest, TheRunsBuffersComeFromItsContextsPool) {
  auto source = NumberedBatches(200);
  RecordingSink sink;
  AddOne program;
  MemoryPool pool;
  ExecContext context;
  context.threads = 4;
  context.memory_pool = &pool;
  auto stats = RunStage(context, {source.get()}, {{&sink, "all"}}, &program, StageOptions());
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  ASSERT_EQ(sink.merged.size(), 200u);
  EXPECT_EQ(sink.merged[199], 200);
  // Every column the program built came from the run's pool, on whatever worker it ran, and
  // went back to it; the caller's thread allocates from its own pool again afterwards.
  EXPECT_GE(pool.peak_bytes(), 64);
  EXPECT_EQ(pool.bytes_allocated(), 0);
  EXPECT_EQ(CurrentMemoryPool(), DefaultMemoryPool());
  const int64_t peak = pool.peak_bytes();
  auto again = NumberedBatches(50);
  RecordingSink other;
  context.memory_pool = DefaultMemoryPool();
  ASSERT_TRUE(RunStage(context, {again.get()}, {{&other, "all"}}, &program, StageOptions()).ok());
  EXPECT_EQ(pool.peak_bytes(), peak);
  context.memory_pool = nullptr;
  EXPECT_EQ(context.Validate().code(), StatusCode::kInvalidArgument);
}

TEST(StageExecutorTest, TheFirstSinkErrorInInputOrderStopsTheStageNamedByItsStep) {
  auto source = NumberedBatches(300);
  RecordingSink failing(/*fail_at=*/137);
  FeedAll program;
  ExecContext context;
  context.threads = 4;
  auto stats = RunStage(context, {source.get()}, {{&failing, "write"}}, &program, StageOptions());
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().code(), StatusCode::kIOError);
  EXPECT_EQ(stats.status().message(), "step 'write': disk full");
  EXPECT_EQ(stats.status().context().record, 137);
  ASSERT_EQ(failing.merged.size(), 137u);  // every unit before the failing one, none after
  EXPECT_EQ(failing.merged.back(), 136);
  EXPECT_EQ(failing.drains, 0);  // a failed stage is not drained: the caller aborts the sink
}

}  // namespace
}  // namespace recflow::pipeline
