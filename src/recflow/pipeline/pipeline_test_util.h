// Test support for pipeline runs: a fresh directory per test, and a Feather (Arrow IPC file) output in it.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>

#include "recflow/dataset/dataset_sink.h"
#include "recflow/formats/arrow_ipc/arrow_output_format.h"
#include "recflow/formats/sink.h"

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

/// A bound on a hang, not a timing: a Latch wait ends at once when the code under test behaves.
inline constexpr auto kHangBound = std::chrono::seconds(60);

/// Opens once, from any thread; Wait returns true once it is open, false after kHangBound.
class Latch {
 public:
  /// Opens the latch and wakes every waiter.
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    opened_.notify_all();
  }
  /// Waits until the latch is open (true) or kHangBound passed (false).
  bool Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    return opened_.wait_for(lock, kHangBound, [&] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable opened_;
  bool open_ = false;
};

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

/// A caller's output that looks at each batch in input order (from Merge, on the stage's
/// in-order thread): derive and implement MergeBatch.
class InOrderBatchSink : public Sink {
 public:
  struct Part final : SinkPartial {
    std::shared_ptr<RecordBatch> batch;
  };
  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState*, const std::shared_ptr<RecordBatch>& batch) const override {
    auto part = std::make_unique<Part>();
    part->batch = batch;
    return std::unique_ptr<SinkPartial>(std::move(part));
  }
  Status Merge(SinkPartial* partial) override { return MergeBatch(*static_cast<Part*>(partial)->batch); }
  /// The next batch, in input order.
  virtual Status MergeBatch(const RecordBatch& batch) = 0;
};

}  // namespace recflow::testing
