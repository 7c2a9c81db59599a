// The stage executor's contract with sinks: Consume on worker threads with their own local state, Merge and Emit in
// input order, Process before Emit, Drain once at the end, the first error in input order named by the sink's step,
// tokens delivered in order between units, a second stop token.
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
  EXPECT_EQ(stats.status().context().file, "numbers");  // the merged unit's input, as the sink named a record
  ASSERT_EQ(failing.merged.size(), 137u);  // every unit before the failing one, none after
  EXPECT_EQ(failing.merged.back(), 136);
  EXPECT_EQ(failing.drains, 0);  // a failed stage is not drained: the caller aborts the sink
}

// Units 0..n-1: unit i holds the one value i, except every fifth, which holds no rows; every
// third carries a watermark at time i (so some tokens ride on empty units).
class TokenSource final : public Source {
 public:
  explicit TokenSource(int64_t n) : n_(n) {}
  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (next_ == n_) return std::unique_ptr<SourceUnit>();
    return std::unique_ptr<SourceUnit>(new Unit(next_++, schema_));
  }

 private:
  class Unit final : public SourceUnit {
   public:
    Unit(int64_t i, SchemaPtr schema) : i_(i), schema_(std::move(schema)) {}
    Result<DecodedUnit> Decode() override {
      Int64Builder builder;
      if (i_ % 5 != 0) RETURN_NOT_OK(builder.Append(i_));
      DecodedUnit out;
      ASSIGN_OR_RETURN(auto column, builder.Finish());
      out.input_records = i_ % 5 != 0 ? 1 : 0;
      ASSIGN_OR_RETURN(out.batch, RecordBatch::Make(schema_, out.input_records, {std::move(column)}));
      return out;
    }
    int64_t input_bytes() const override { return 8; }
    std::optional<FlowToken> token() const override {
      if (i_ % 3 != 0) return std::nullopt;
      return FlowToken{FlowToken::Kind::kWatermark, i_};
    }

   private:
    int64_t i_;
    SchemaPtr schema_;
  };

  int64_t n_;
  int64_t next_ = 0;
  SchemaPtr schema_ = Schema::Make({Field::Make("i", int64())});
  std::string name_ = "tokens";
};

// Logs merged values ("u7") and tokens ("t9") in the order the executor delivers them.
class TokenLogSink final : public Sink {
 public:
  struct Partial final : SinkPartial {
    int64_t value = -1;
  };
  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState*, const std::shared_ptr<RecordBatch>& batch) const override {
    auto partial = std::make_unique<Partial>();
    partial->value = ValueOf(*batch);
    return std::unique_ptr<SinkPartial>(std::move(partial));
  }
  Status Merge(SinkPartial* partial) override {
    log.push_back("u" + std::to_string(static_cast<Partial*>(partial)->value));
    return Status::OK();
  }
  Status OnToken(const FlowToken& token) override {
    log.push_back("t" + std::to_string(token.time));
    return Status::OK();
  }
  std::vector<std::string> log;
};

// Feeds the units that have rows; logs the tokens the program gets, and fails on the one at `fail_at`.
class TokenProgram final : public StageProgram {
 public:
  Result<std::unique_ptr<UnitState>> Process(const UnitInfo&, DecodedUnit decoded, SinkFeed& feed) override {
    if (decoded.batch->num_rows() > 0) RETURN_NOT_OK(feed.Feed(0, decoded.batch));
    return std::unique_ptr<UnitState>();
  }
  Status Assign(const UnitInfo&, UnitState*) override { return Status::OK(); }
  void OnSkipped(size_t, const SkippedRecord&) override {}
  Status OnToken(const UnitInfo& unit, const FlowToken& token) override {
    if (token.time == fail_at) return Status::Internal("timer failed").WithRecord(token.time);
    log.push_back("t" + std::to_string(token.time) + "@" + std::to_string(unit.index));
    return Status::OK();
  }
  std::vector<std::string> log;
  int64_t fail_at = -1;
};

TEST(StageExecutorTest, TokensReachTheProgramAndEverySinkInOrderBetweenUnitsAtAnyThreadCount) {
  constexpr int64_t kUnits = 300;
  std::vector<std::string> expected_sink, expected_program;
  for (int64_t i = 0; i < kUnits; ++i) {
    if (i % 5 != 0) expected_sink.push_back("u" + std::to_string(i));
    if (i % 3 == 0) {
      expected_sink.push_back("t" + std::to_string(i));
      expected_program.push_back("t" + std::to_string(i) + "@" + std::to_string(i));
    }
  }
  for (int threads : {1, 2, 4, 8}) {
    TokenSource source(kUnits);
    TokenLogSink fed, unfed;  // the second sink is never fed rows, and still gets every token
    TokenProgram program;
    ExecContext context;
    context.threads = threads;
    StageOptions options;
    options.max_in_flight = 3 * threads;
    auto stats = RunStage(context, {&source}, {{&fed, "fed"}, {&unfed, "unfed"}}, &program, options);
    ASSERT_TRUE(stats.ok()) << stats.status().ToString();
    EXPECT_EQ(fed.log, expected_sink) << threads << " threads";
    EXPECT_EQ(program.log, expected_program) << threads << " threads";
    std::vector<std::string> tokens_only;
    for (const std::string& entry : expected_sink) {
      if (entry[0] == 't') tokens_only.push_back(entry);
    }
    EXPECT_EQ(unfed.log, tokens_only) << threads << " threads";
  }
}

TEST(StageExecutorTest, AStagesWatermarkIsTheMinimumOfItsInputsAndNeverGoesBack) {
  // Inputs are read one after the other: while the first is read, the second holds the watermark at the start of
  // time; once the first ended, it holds nothing back. So each watermark is delivered once, in order (without the
  // minimum: 0, 3, ..., 27 from the first input, then the second's going back to 0).
  std::vector<std::string> expected;
  for (int64_t i = 0; i < 30; i += 3) expected.push_back("t" + std::to_string(i));
  for (int threads : {1, 4}) {
    TokenSource first(30), second(30);
    TokenLogSink sink;
    TokenProgram program;
    ExecContext context;
    context.threads = threads;
    auto stats = RunStage(context, {&first, &second}, {{&sink, "log"}}, &program, StageOptions());
    ASSERT_TRUE(stats.ok()) << stats.status().ToString();
    std::vector<std::string> tokens;
    size_t first_token = sink.log.size();
    for (size_t k = 0; k < sink.log.size(); ++k) {
      if (sink.log[k][0] != 't') continue;
      tokens.push_back(sink.log[k]);
      first_token = std::min(first_token, k);
    }
    EXPECT_EQ(tokens, expected) << threads << " threads";
    // The first token comes with the second input's first unit: after the first input's 24 units with rows.
    EXPECT_EQ(first_token, 24u) << threads << " threads";
  }
}

TEST(StageExecutorTest, AFailingTokenStopsTheStageInInputOrder) {
  TokenSource source(300);
  TokenLogSink sink;
  TokenProgram program;
  program.fail_at = 150;  // a token on an empty unit (150 % 5 == 0)
  ExecContext context;
  context.threads = 4;
  auto stats = RunStage(context, {&source}, {{&sink, "log"}}, &program, StageOptions());
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().message(), "timer failed");
  ASSERT_FALSE(sink.log.empty());
  EXPECT_EQ(sink.log.back(), "u149");  // every unit and token before the failing token, nothing after
}

TEST(StageExecutorTest, TheSecondStopTokenStopsTheStage) {
  auto source = NumberedBatches(100);
  RecordingSink sink;
  FeedAll program;
  StopSource stop;
  stop.RequestStop();
  StageOptions options;
  options.also_stop = stop.token();
  auto stats = RunStage(ExecContext(), {source.get()}, {{&sink, "write"}}, &program, options);
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().code(), StatusCode::kCancelled);
  EXPECT_TRUE(sink.merged.empty());
  EXPECT_EQ(sink.drains, 0);
}

}  // namespace
}  // namespace recflow::pipeline
