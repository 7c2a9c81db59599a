// Tests of PipelinePass: the served step chosen or refused, concurrent connections each running the pipeline, a stop.
#include "recflow/serve/pipeline_pass.h"

#include <gtest/gtest.h>

#include <signal.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/serve/server.h"
#include "recflow/serve/stream_client.h"
#include "recflow/testing/testdata.h"

namespace recflow::serve {
namespace {

using pipeline::Pipeline;
using pipeline::PCollection;

SchemaPtr IdSchema() { return Schema::Make({Field::Make("id", int64(), false)}); }

// "rows" (ids 0 .. rows-1 in batches of 100) → "even" (a filter).
std::shared_ptr<Pipeline> EvenIds(int64_t rows) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int64_t start = 0; start < rows; start += 100) {
    Int64Builder ids;
    for (int64_t i = start; i < std::min(rows, start + 100); ++i) EXPECT_TRUE(ids.Append(i).ok());
    batches.push_back(*RecordBatch::Make(IdSchema(), std::min<int64_t>(100, rows - start), {*ids.Finish()}));
  }
  auto p = std::make_shared<Pipeline>();
  auto all = p->Create("rows", IdSchema(), std::move(batches));
  p->Filter("even", all, [](const pipeline::RowView& row) -> Result<bool> {
    ASSIGN_OR_RETURN(pipeline::RowValue id, row.Get("id"));
    return std::get<int64_t>(id) % 2 == 0;
  });
  return p;
}

TEST(PipelinePassTest, ServesTheOneUnreadStepOrTheOneNamedAndRefusesWhatItCannot) {
  auto p = EvenIds(10);
  EXPECT_EQ(*ChooseServedStep(*p, ""), 1);
  EXPECT_EQ(*ChooseServedStep(*p, "rows"), 0);
  const auto unknown = ChooseServedStep(*p, "odd");
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("--output odd: no such step ('rows', 'even')"), std::string::npos)
      << unknown.status().ToString();
  p->Filter("also", PCollection(p.get(), 0), [](const pipeline::RowView&) -> Result<bool> { return true; });
  const auto two = ChooseServedStep(*p, "");
  EXPECT_NE(two.status().message().find("2 steps nothing reads ('even', 'also')"), std::string::npos)
      << two.status().ToString();
  EXPECT_EQ(*ChooseServedStep(*p, "also"), 2);
  const pipeline::SideFileWriter unused = [](const pipeline::SideInputValue&, FileSystem&, const std::string&) {
    return Status::Internal("a refused pipeline writes nothing");
  };
  ASSERT_TRUE(p->AddSideFile("/tmp/recflow_pipeline_pass_test.vocab", PCollection(p.get(), 0), unused).ok());
  EXPECT_NE(ChooseServedStep(*p, "also").status().message().find("writes /tmp/recflow_pipeline_pass_test.vocab"),
            std::string::npos);
  auto letters = EvenIds(10);
  pipeline::StepOptions dead;
  dead.on_error.mode = pipeline::ErrorPolicy::Mode::kDeadLetter;
  dead.on_error.dead_letter = "/tmp/recflow_pipeline_pass_test.jsonl";
  letters->Filter("lettered", PCollection(letters.get(), 1),
                  [](const pipeline::RowView&) -> Result<bool> { return true; }, dead);
  EXPECT_NE(ChooseServedStep(*letters, "").status().message().find("step 'lettered' writes a dead-letter file"),
            std::string::npos);
}

TEST(PipelinePassTest, ConcurrentConnectionsEachRunThePipelineAndGetEveryRowInOrder) {
  recflow::testing::ScratchDir dir;
  PassOptions options;
  options.stream.batch_rows = 64;
  ExecContext context;
  context.threads = 2;
  auto pass = PipelinePass::Make(EvenIds(5000), "", options, context);
  ASSERT_TRUE(pass.ok()) << pass.status().ToString();
  EXPECT_EQ((*pass)->step(), "even");
  ConnectionOptions connections;
  connections.max_clients = 4;
  auto server = Server::Start(*ParseEndpoint("unix://" + dir.File("p.sock")), connections,
                              [pass = *pass](OutputStream* out) { return pass->Stream(out); });
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const std::string endpoint = (*server)->endpoint().ToString();
  std::vector<std::thread> clients;
  std::vector<std::vector<int64_t>> received(4);
  for (size_t c = 0; c < received.size(); ++c) {
    clients.emplace_back([&, c] {
      auto client = StreamClient::Connect(endpoint);
      ASSERT_TRUE(client.ok()) << client.status().ToString();
      while (true) {
        auto batch = (*client)->Next();
        ASSERT_TRUE(batch.ok()) << batch.status().ToString();
        if (*batch == nullptr) break;
        for (int64_t i = 0; i < (*batch)->num_rows(); ++i) received[c].push_back(IntegerValue(*(*batch)->column_data(0), i));
      }
    });
  }
  for (auto& t : clients) t.join();
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 5000; i += 2) expected.push_back(i);
  for (const auto& ids : received) EXPECT_EQ(ids, expected);
}

TEST(PipelinePassTest, StopRunsCancelsTheRunInFlightAndEveryLaterOne) {
  // The filter of the first unit waits until the test has stopped the runs: the run is in flight.
  std::mutex mutex;
  std::condition_variable cv;
  bool running = false, stopped = false;
  auto p = EvenIds(1000);
  p->Filter("gate", PCollection(p.get(), 1), [&](const pipeline::RowView&) -> Result<bool> {
    std::unique_lock<std::mutex> lock(mutex);
    running = true;
    cv.notify_all();
    cv.wait(lock, [&] { return stopped; });
    return true;
  });
  auto pass = PipelinePass::Make(p, "gate", PassOptions{}, ExecContext::Defaults());
  ASSERT_TRUE(pass.ok()) << pass.status().ToString();
  BufferOutputStream out;
  Status st;
  std::thread run([&] { st = (*pass)->Stream(&out); });
  {
    std::unique_lock<std::mutex> lock(mutex);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return running; }));
  }
  (*pass)->StopRuns(SIGTERM);
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopped = true;
  }
  cv.notify_all();
  run.join();
  EXPECT_EQ(st.code(), StatusCode::kCancelled) << st.ToString();
  const std::shared_ptr<Buffer> bytes = out.Finish();
  EXPECT_GT(bytes->size(), 0);  // the schema message, no end-of-stream
  EXPECT_NE(bytes->view().substr(bytes->size() - 8), std::string_view("\xff\xff\xff\xff\0\0\0\0", 8));
  BufferOutputStream later;
  EXPECT_EQ((*pass)->Stream(&later).code(), StatusCode::kCancelled);  // a run after the stop stops at once
}

}  // namespace
}  // namespace recflow::serve
