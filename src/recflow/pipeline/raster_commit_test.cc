// write_raster's rasters are outputs of the run: published only when the whole run succeeds, none left by a run that
// fails on a later scene or is cancelled (its tile loop checks the stop token), on the shared Sentinel-2 bands.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/yaml_pipeline.h"
#include "recflow/testing/testdata.h"

namespace recflow::pipeline {
namespace {

namespace fs = std::filesystem;

std::string S2(const std::string& band) { return (testing::TestdataDir() / "raster" / "sentinel2-l2a" / band).string(); }

// Every name under `dir` (recursively, relative to it).
std::set<std::string> Tree(const fs::path& dir) {
  std::set<std::string> names;
  if (!fs::exists(dir)) return names;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) names.insert(fs::relative(entry.path(), dir).string());
  return names;
}

class RasterCommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::HaveTestdata()) GTEST_SKIP() << "shared testdata not found at " << testing::TestdataDir();
    // A copy of the NIR band cut in half: GDAL opens it, its blocks past the cut fail to read.
    const std::string cut = dir_.File("B08-cut.tif");
    fs::copy_file(S2("B08.tif"), cut);
    fs::resize_file(cut, fs::file_size(cut) / 2);
    registry_ = BuiltinSteps();
    // `stop` requests the run's stop (through `stop_`) for every row it sees.
    ASSERT_TRUE(registry_
                    .Add(StepType{"stop", "requests a stop", "", 1, 1,
                                  [this](StepContext& ctx) -> Result<std::optional<PCollection>> {
                                    return ctx.pipeline->MapRows(
                                        ctx.name, ctx.input(), {},
                                        [this](const RowView&, RowEmitter& out) -> Status {
                                          stop_.RequestStop();
                                          out.Emit({});
                                          return Status::OK();
                                        },
                                        ctx.options);
                                  }})
                    .ok());
  }

  // Runs read → read_raster (a 1024 × 1024 window) → evi → [extra] → write_raster into out/`name`
  // on two threads over scenes a, b, c whose NIR bands are `nir`.
  Result<RunResult> Run(const std::vector<std::string>& nir, const std::string& extra = "",
                        const std::string& name = "{scene_id}.tif") {
    std::ofstream scenes(dir_.File("scenes.csv"));
    scenes << "scene_id,blue,red,nir\n";
    const char* ids[] = {"a", "b", "c"};
    for (size_t i = 0; i < nir.size(); ++i) scenes << ids[i] << "," << S2("B02.tif") << "," << S2("B04.tif") << "," << nir[i] << "\n";
    scenes.close();
    const std::string text = "steps:\n  - read: " + dir_.File("scenes.csv") +
                             "\n  - read_raster: {datasets: {blue: blue, red: red, nir: nir}, scale: 0.0001, window: [0, 0, 1024, 1024]}" +
                             "\n  - evi: {output: evi}\n" + extra +
                             "  - text_template: {output: path, template: '" + name + "'}" +
                             "\n  - write_raster: {column: evi, dir: " + Out().string() +
                             ", path: path, block_size: 256}\n  - select: [scene_id, valid_count]" +
                             "\n  - write: {path: " + dir_.File("stats") + ", format: jsonl, mode: overwrite}\n";
    auto loaded = ParsePipelineYaml(text, "p.yaml", dir_.path().string(), {}, registry_);
    if (!loaded.ok()) return loaded.status();
    ExecContext context;
    context.threads = 2;
    context.stop_token = stop_.token();
    return RunPipeline(context, *loaded->pipeline, RunOptions::Defaults(), nullptr);
  }

  fs::path Out() const { return dir_.path() / "out"; }

  testing::ScratchDir dir_;
  StepRegistry registry_;
  StopSource stop_;
};

TEST_F(RasterCommitTest, ASuccessfulRunPublishesEveryRasterAndNothingElse) {
  fs::create_directories(Out());
  std::ofstream(Out() / "b.tif") << "the previous b";
  auto result = Run({S2("B08.tif"), S2("B08.tif"), S2("B08.tif")});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(Tree(Out()), (std::set<std::string>{"a.tif", "b.tif", "c.tif"}));
  EXPECT_GT(fs::file_size(Out() / "b.tif"), 1000u);
}

TEST_F(RasterCommitTest, ARunFailingOnItsThirdSceneLeavesNoRasterAndKeepsThePreviousOnes) {
  fs::create_directories(Out());
  std::ofstream(Out() / "a.tif") << "the previous a";
  auto result = Run({S2("B08.tif"), S2("B08.tif"), dir_.File("B08-cut.tif")});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().ToString().find("B08-cut.tif"), std::string::npos) << result.status().ToString();
  // a.tif is the file that was there; b.tif and c.tif were never published; nothing staged is left.
  EXPECT_EQ(Tree(Out()), std::set<std::string>{"a.tif"});
  std::ifstream previous(Out() / "a.tif");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(previous), {}), "the previous a");
  EXPECT_FALSE(fs::exists(dir_.File("stats")));
}

TEST_F(RasterCommitTest, TwoRowsWritingOneFileFailTheRunAndPublishNothing) {
  auto result = Run({S2("B08.tif"), S2("B08.tif")}, "", "same.tif");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().ToString().find("same.tif' twice"), std::string::npos) << result.status().ToString();
  EXPECT_EQ(Tree(Out()), std::set<std::string>{});
}

TEST_F(RasterCommitTest, ACancelledRunStopsBetweenTilesAndLeavesNothing) {
  auto result = Run({S2("B08.tif"), S2("B08.tif"), S2("B08.tif")}, "  - stop: {}\n");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kCancelled) << result.status().ToString();
  EXPECT_EQ(Tree(Out()), std::set<std::string>{});
  EXPECT_FALSE(fs::exists(dir_.File("stats")));
}

}  // namespace
}  // namespace recflow::pipeline
