// Test support for pipeline runs: a fresh directory per test, and a Feather (Arrow IPC file) output in it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "recflow/dataset/dataset_sink.h"
#include "recflow/formats/arrow_ipc/arrow_output_format.h"

namespace recflow::testing {

/// A Feather dataset at `dir`, not synced (tests do not need durability).
inline dataset::SinkOptions FeatherSink(const std::filesystem::path& dir) {
  dataset::SinkOptions options = dataset::SinkOptions::Defaults();
  options.output = dir.string();
  options.sync = false;
  options.format = [](SchemaPtr schema) {
    return arrow_ipc::MakeArrowOutputFormat(std::move(schema), true, arrow_ipc::IpcWriteOptions{});
  };
  return options;
}

/// A fixture whose `dir_` is an empty directory named after the process and the test, removed after it.
class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("recflow_pipeline_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

}  // namespace recflow::testing
