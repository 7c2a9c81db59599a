// Read nodes made from an opened source: the first pass reads that source, later passes reopen the input, and an
// input that can be read only once fails clearly — before any data moves — when a run would read it again.
#include <gtest/gtest.h>

#include <filesystem>

#include "recflow/columnar/builder.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/formats/batch_source.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/pipeline_test_util.h"

namespace recflow::pipeline {
namespace {

namespace fs = std::filesystem;

SchemaPtr IdSchema() { return Schema::Make({Field::Make("id", int64(), false)}); }

// Four batches of ids 0..99.
std::shared_ptr<const std::vector<std::shared_ptr<RecordBatch>>> Ids() {
  auto batches = std::make_shared<std::vector<std::shared_ptr<RecordBatch>>>();
  for (int64_t start = 0; start < 100; start += 25) {
    Int64Builder ids;
    for (int64_t i = start; i < start + 25; ++i) EXPECT_TRUE(ids.Append(i).ok());
    batches->push_back(*RecordBatch::Make(IdSchema(), 25, {*ids.Finish()}));
  }
  return batches;
}

// A source over Ids() that counts the units taken from it.
class CountingSource final : public Source {
 public:
  explicit CountingSource(int* units) : inner_(MakeBatchSource("ids", IdSchema(), Ids())), units_(units) {}
  const SchemaPtr& schema() const override { return inner_->schema(); }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    ASSIGN_OR_RETURN(auto unit, inner_->NextUnit());
    if (unit != nullptr) ++*units_;
    return unit;
  }
  const std::string& name() const override { return inner_->name(); }

 private:
  std::unique_ptr<Source> inner_;
  int* units_;
};

class ReadOpenedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("recflow_read_input_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // An Arrow file dataset at dir_/name, replaced by each run.
  dataset::SinkOptions Output(const std::string& name) const {
    dataset::SinkOptions options = testing::FeatherSink(dir_ / name);
    options.mode = dataset::SaveMode::kOverwrite;
    return options;
  }

  fs::path dir_;
};

TEST_F(ReadOpenedTest, TheFirstRunReadsTheOpenedSourceAndALaterRunReopensTheInput) {
  int units = 0;
  int reopened = 0;
  SourceFactory reopen = [&](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
    ++reopened;
    return std::make_unique<CountingSource>(&units);
  };
  Pipeline p;
  p.Write("write", p.ReadOpened("read", std::make_unique<CountingSource>(&units), reopen), Output("out"));
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  for (int run = 1; run <= 2; ++run) {
    auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->writes.at(0).second.records, 100);
    EXPECT_EQ(units, 4 * run);
    EXPECT_EQ(reopened, run - 1);  // the first run took the source opened when the pipeline was built
  }
}

TEST_F(ReadOpenedTest, AnInputReadableOnceIsReadOnceAndASecondRunSaysSoWithoutTouchingTheOutput) {
  int units = 0;
  Pipeline p;
  p.Write("write", p.ReadOpened("read", std::make_unique<CountingSource>(&units), nullptr), Output("out"));
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr).ok());
  EXPECT_EQ(units, 4);
  const auto before = fs::last_write_time(dir_ / "out");
  auto again = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(again.status().message(),
            "step 'read': its input ids can be read only once (it is not a regular file) and an earlier run read "
            "it; save it to a file to read it again");
  EXPECT_EQ(units, 4);
  EXPECT_EQ(fs::last_write_time(dir_ / "out"), before);
}

TEST_F(ReadOpenedTest, ARunOnAnotherFileSystemThanTheBuildsOpensTheInputOnTheRuns) {
  auto memory = std::make_shared<MemoryFileSystem>();
  ASSERT_TRUE(memory->CreateDirectories(dir_.string()).ok());
  ExecContext in_memory = ExecContext::Defaults();
  in_memory.file_system = memory;
  int units = 0;
  std::vector<std::string> opened_on;
  SourceFactory reopen = [&](const std::shared_ptr<FileSystem>& file_system) -> Result<std::unique_ptr<Source>> {
    opened_on.emplace_back(file_system->type_name());
    return std::make_unique<CountingSource>(&units);
  };
  Pipeline p;  // built on the local file system
  p.Write("write", p.ReadOpened("read", std::make_unique<CountingSource>(&units), reopen), Output("out"));
  ASSERT_TRUE(RunPipeline(in_memory, p, RunOptions::Defaults(), nullptr).ok());
  EXPECT_EQ(opened_on, std::vector<std::string>{"memory"});
  EXPECT_EQ(units, 4);
  EXPECT_TRUE(*memory->Exists((dir_ / "out" / "_SUCCESS").string()));
  EXPECT_FALSE(fs::exists(dir_ / "out")) << "the run's writes go to its file system, not the local disk";
  // An input readable once cannot be opened again on the run's file system: the run says so.
  Pipeline once;
  once.Write("write", once.ReadOpened("read", std::make_unique<CountingSource>(&units), nullptr), Output("once"));
  auto failed = RunPipeline(in_memory, once, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(),
            "step 'read': its input ids can be read only once (it is not a regular file) and the pipeline was built "
            "on the local file system but runs on the memory one; save it to a file to read it again");
  EXPECT_EQ(units, 4);
  EXPECT_FALSE(*memory->Exists((dir_ / "once").string()));
}

TEST_F(ReadOpenedTest, AnInputReadableOnceThatThePlanReadsTwiceFailsBeforeAnyDataMoves) {
  // The mean is a first pass over the input; the centring ParDo reads it again in a second.
  class Center final : public DoFn {
   public:
    Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override { return input; }
    Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const override {
      RETURN_NOT_OK(ctx.side_inputs().Singleton("mean").status());
      ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(input.schema(), input.num_rows(), input.columns()));
      return DoFnOutput{batch, {}};
    }
  };
  int units = 0;
  Pipeline p;
  auto ids = p.ReadOpened("read", std::make_unique<CountingSource>(&units), nullptr);
  auto mean = p.CombineGlobally("mean", ids, {Aggregate{"id", *BuiltinCombiner("mean"), "mean"}});
  StepOptions options;
  options.side_inputs = {{"mean", mean}};
  p.Write("write", p.ParDo("center", ids, std::make_shared<Center>(), options), Output("out"));
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(),
            "step 'read': its input ids can be read only once (it is not a regular file) and the pipeline reads it in "
            "2 passes (a step fitted over it reads it before the pass that applies it); save it to a file to read it "
            "again");
  EXPECT_EQ(units, 0);
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

}  // namespace
}  // namespace recflow::pipeline
