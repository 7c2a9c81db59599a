// OutputIntoStream: a whole pipeline's step read through an exported C stream — the rows of a filter over the penguins
// CSV equal what the same step gives a collecting sink, on 1 and 4 threads; a write beside the stream is
// committed when the stream ends and aborted when the consumer releases the stream early.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/c_stream.h"
#include "recflow/columnar/element_access.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/formats/source_test_util.h"
#include "recflow/pipeline/collect_sink.h"
#include "recflow/pipeline/pipeline_test_util.h"
#include "recflow/pipeline/read_stream.h"
#include "recflow/testing/testdata.h"

namespace recflow::pipeline {
namespace {

namespace fs = std::filesystem;
using Batches = std::vector<std::shared_ptr<RecordBatch>>;

// The penguins of species 0 in the processed penguins CSV of TFX's penguin example (334 rows), read in 512-byte blocks.
std::shared_ptr<Pipeline> PenguinPipeline() {
  auto p = std::make_shared<Pipeline>();
  const std::string path = (recflow::testing::TestdataDir() / "csv/penguins_processed.csv").string();
  dataset::InputOptions options;
  options.settings.block_size = 512;
  auto penguins = p->Read("read", InputsFactory({path}, options));
  p->Filter("species 0", penguins, [](const RowView& row) -> Result<bool> {
    ASSIGN_OR_RETURN(RowValue species, row.Get("species"));
    return std::get<int64_t>(species) == 0;
  });
  return p;
}

// `batches` without their zero-row ones (a stream passes none on).
Batches NonEmpty(Batches batches) {
  std::erase_if(batches, [](const auto& b) { return b->num_rows() == 0; });
  return batches;
}

ArrowArrayStream Export(const SchemaPtr& schema, StreamRun run, int threads, int64_t max_batches) {
  ExecContext context;
  context.threads = threads;
  CStreamOptions options;
  options.max_batches = max_batches;
  ArrowArrayStream stream{};
  const Status st = ExportRunStream(context, schema, std::move(run), options, &stream);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return stream;
}

TEST(OutputStreamTest, AFiltersRowsThroughTheStreamEqualWhatACollectingSinkGets) {
  RECFLOW_REQUIRE_TESTDATA();
  for (int threads : {1, 4}) {
    auto p = PenguinPipeline();
    ASSERT_TRUE(p->status().ok()) << p->status().ToString();
    CollectSink collected;
    RunOptions options;
    options.outputs["species 0"] = &collected;
    ExecContext context;
    context.threads = threads;
    ASSERT_TRUE(RunPipeline(context, *p, options, nullptr).ok());
    const Batches expected = NonEmpty(collected.TakeBatches());
    ASSERT_GT(expected.size(), 1u);

    ArrowArrayStream stream = Export(p->node(1).schema, OutputIntoStream(p, "species 0"), threads, 2);
    auto reader = c_data::StreamReader::Open(&stream);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    EXPECT_TRUE((*reader)->schema()->Equals(*p->node(1).schema));
    Batches streamed;
    while (true) {
      auto batch = (*reader)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (*batch == nullptr) break;
      streamed.push_back(*batch);
    }
    ASSERT_EQ(streamed.size(), expected.size()) << threads << " threads";
    int64_t rows = 0;
    for (size_t k = 0; k < streamed.size(); ++k) {
      EXPECT_TRUE(streamed[k]->Equals(*expected[k])) << "batch " << k << ", " << threads << " threads";
      rows += streamed[k]->num_rows();
    }
    EXPECT_EQ(rows, 146);  // the penguins of species 0 in the file
  }
}

SchemaPtr IdSchema() { return Schema::Make({Field::Make("id", int64(), false)}); }

// 20 000 ids in batches of 10, a filter "even" (the stream's step) and a Feather write of every id to `dir`.
std::shared_ptr<Pipeline> EvenAndWrite(const fs::path& dir) {
  Batches batches;
  for (int64_t start = 0; start < 20000; start += 10) {
    Int64Builder ids;
    for (int64_t i = start; i < start + 10; ++i) EXPECT_TRUE(ids.Append(i).ok());
    batches.push_back(*RecordBatch::Make(IdSchema(), 10, {*ids.Finish()}));
  }
  auto p = std::make_shared<Pipeline>();
  auto ids = p->Create("ids", IdSchema(), std::move(batches));
  p->Filter("even", ids, [](const RowView& row) -> Result<bool> {
    ASSIGN_OR_RETURN(RowValue id, row.Get("id"));
    return std::get<int64_t>(id) % 2 == 0;
  });
  p->Write("write ids", ids, testing::FeatherSink(dir));
  return p;
}

// The names in `dir`'s parent that contain `dir`'s name (the output and anything staged beside it).
std::vector<std::string> OutputAndStaged(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.parent_path())) {
    const std::string name = entry.path().filename().string();
    if (name.find(dir.filename().string()) != std::string::npos) names.push_back(name);
  }
  return names;
}

TEST(OutputStreamTest, AWriteBesideTheStreamIsCommittedAtItsEndAndAbortedWhenItIsReleasedEarly) {
  const fs::path root = fs::temp_directory_path() / ("recflow_output_stream_test_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  for (int threads : {1, 4}) {
    // Read to the end: 10 000 even ids streamed, the write committed with all 20 000.
    const fs::path whole = root / ("whole" + std::to_string(threads));
    auto p = EvenAndWrite(whole);
    ASSERT_TRUE(p->status().ok()) << p->status().ToString();
    ArrowArrayStream stream = Export(p->node(1).schema, OutputIntoStream(p, "even"), threads, 1);
    auto reader = c_data::StreamReader::Open(&stream);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    int64_t rows = 0;
    while (true) {
      auto batch = (*reader)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (*batch == nullptr) break;
      for (int64_t i = 0; i < (*batch)->num_rows(); ++i, ++rows) {
        ASSERT_EQ(IntegerValue(*(*batch)->column_data(0), i), 2 * rows);
      }
    }
    EXPECT_EQ(rows, 10000);
    EXPECT_TRUE(fs::is_directory(whole));
    dataset::InputOptions read;
    auto written = dataset::OpenInputs(std::vector<std::string>{whole.string()}, read);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    auto units = recflow::testing::DecodeAllUnits(**written);
    ASSERT_TRUE(units.ok()) << units.status().ToString();
    int64_t written_rows = 0;
    for (const auto& unit : *units) written_rows += unit.batch->num_rows();
    EXPECT_EQ(written_rows, 20000);

    // Released after one batch: the run (held by the one-batch queue) is cancelled and the write
    // aborted — no output, nothing staged beside it.
    const fs::path early = root / ("early" + std::to_string(threads));
    auto q = EvenAndWrite(early);
    ArrowArrayStream released = Export(q->node(1).schema, OutputIntoStream(q, "even"), threads, 1);
    {
      auto first = c_data::StreamReader::Open(&released);
      ASSERT_TRUE(first.ok()) << first.status().ToString();
      auto batch = (*first)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      ASSERT_NE(*batch, nullptr);
    }  // the reader releases the stream, joining the run
    EXPECT_TRUE(OutputAndStaged(early).empty()) << OutputAndStaged(early).front();
  }
  fs::remove_all(root);
}

}  // namespace
}  // namespace recflow::pipeline
