// Tests of how a run ends for what is not a dataset: a WriteTo sink (opened per run, committed after the datasets,
// aborted on failure, holding what it would publish until then when the run commits datasets or files) and
// Source::Committed (called once after every commit, never when the run fails).
#include <gtest/gtest.h>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/formats/batch_source.h"
#include "recflow/pipeline/collect_sink.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/pipeline_test_util.h"

namespace recflow::pipeline {
namespace {

using Batches = std::vector<std::shared_ptr<RecordBatch>>;

SchemaPtr IdSchema() { return Schema::Make({Field::Make("id", int64(), false)}); }

Batches Ids(int64_t rows) {
  Int64Builder ids;
  for (int64_t i = 0; i < rows; ++i) EXPECT_TRUE(ids.Append(i).ok());
  return {*RecordBatch::Make(IdSchema(), rows, {*ids.Finish()})};
}

// What the sinks and sources of one run saw, in order.
struct Seen {
  std::vector<std::string> events;
  int64_t rows = 0;
};

// A sink recording its rows, whether it was asked to hold them, and its ends; failing its Emit when `fail`.
class EndsSink final : public Sink {
 public:
  EndsSink(Seen* seen, bool fail) : seen_(seen), fail_(fail) {}
  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState* local, const std::shared_ptr<RecordBatch>& batch) const override {
    return rows_.Consume(local, batch);
  }
  Status Merge(SinkPartial* partial) override { return rows_.Merge(partial); }
  Status Emit(SinkPartial*) override { return fail_ ? Status::IOError("the broker went away") : Status::OK(); }
  void HoldEpochs() override { seen_->events.push_back("sink holds"); }
  Status Finish() override {
    for (const auto& b : rows_.TakeBatches()) seen_->rows += b->num_rows();
    return seen_->events.push_back("sink finish"), Status::OK();
  }
  Status Commit() override { return seen_->events.push_back("sink commit"), Status::OK(); }
  Status Abort() override { return seen_->events.push_back("sink abort"), Status::OK(); }

 private:
  Seen* seen_;
  bool fail_;
  CollectSink rows_;
};

// A source of `rows` ids that records Committed().
class CommittedSource final : public Source {
 public:
  CommittedSource(Seen* seen, int64_t rows) : seen_(seen), rows_(MakeBatchSource("ids", IdSchema(), std::make_shared<const Batches>(Ids(rows)))) {}
  const SchemaPtr& schema() const override { return rows_->schema(); }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override { return rows_->NextUnit(); }
  const std::string& name() const override { return rows_->name(); }
  Status Committed() override { return seen_->events.push_back("source committed"), Status::OK(); }

 private:
  Seen* seen_;
  std::unique_ptr<Source> rows_;
};

class RunEndTest : public testing::TempDirTest {
 protected:
  // ids → write_to (an EndsSink) and, when `files`, a Feather dataset; the run's status.
  Status RunIds(Seen* seen, bool fail, int* opened, bool files = true) {
    Pipeline p;
    auto ids = p.Read("ids", [seen](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
      return std::make_unique<CommittedSource>(seen, 1000);
    }, "ids", {}, /*reopenable=*/false);
    p.WriteTo("to broker", ids, [seen, fail, opened](const SchemaPtr& input, int64_t) -> Result<std::unique_ptr<Sink>> {
      EXPECT_TRUE(input->Equals(*IdSchema()));
      ++*opened;
      return std::make_unique<EndsSink>(seen, fail);
    }, "a broker");
    if (files) p.Write("to files", ids, testing::FeatherSink(dir_ / "out"));
    if (!p.status().ok()) return p.status();
    return RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr).status();
  }
};

TEST_F(RunEndTest, AWriteToSinkIsOpenedPerRunAndTheSourceHearsOfTheCommitLast) {
  Seen seen;
  int opened = 0;
  const Status st = RunIds(&seen, /*fail=*/false, &opened);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(opened, 1);
  EXPECT_EQ(seen.rows, 1000);
  // Held (the run commits a dataset), published at its Commit after the dataset's; then the input is acknowledged.
  EXPECT_EQ(seen.events, (std::vector<std::string>{"sink holds", "sink finish", "sink commit", "source committed"}));
  EXPECT_TRUE(std::filesystem::exists(dir_ / "out" / "_SUCCESS"));
}

TEST_F(RunEndTest, AWriteToSinkThatIsTheRunsOnlyOutputIsNotHeld) {
  Seen seen;
  int opened = 0;
  const Status st = RunIds(&seen, /*fail=*/false, &opened, /*files=*/false);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(seen.rows, 1000);
  EXPECT_EQ(seen.events, (std::vector<std::string>{"sink finish", "sink commit", "source committed"}));
}

TEST_F(RunEndTest, AFailingWriteToSinkFailsTheRunAbortedAndTheSourceNeverHearsOfACommit) {
  Seen seen;
  int opened = 0;
  const Status st = RunIds(&seen, /*fail=*/true, &opened);
  ASSERT_EQ(st.code(), StatusCode::kIOError) << st.ToString();
  EXPECT_NE(st.message().find("step 'to broker'"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("the broker went away"), std::string::npos) << st.ToString();
  EXPECT_EQ(seen.events, (std::vector<std::string>{"sink holds", "sink abort"}));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "out"));
}

}  // namespace
}  // namespace recflow::pipeline
