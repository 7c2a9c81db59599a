// ExportRunStream: a run on its own thread seen as an ArrowArrayStream — batches in order then the end, a run's error
// as get_next's error with its full text, release cancelling the run through its stop token and joining it, batches
// the consumer holds outliving the stream.
#include "recflow/formats/c_stream_run.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "recflow/formats/c_stream_test_util_internal.h"
#include "recflow/columnar/c_stream.h"

namespace recflow::testing {
namespace {

// How a run ended, kept by the test past the run (and the stream).
struct RunRecord {
  Status status;
  bool stop_requested = false;
};

// A run that emits 0, 1, 2, ... until `count` (forever for -1) or Emit fails, then returns
// `ending` (or Emit's error), recording how it ended.
StreamRun Counting(std::shared_ptr<RunRecord> record, int64_t count, Status ending = Status::OK()) {
  return [record, count, ending](const ExecContext& context, Sink* sink) {
    Status status = ending;
    for (int64_t i = 0; count < 0 || i < count; ++i) {
      const Status emitted = Feed(sink, Numbers(i));
      if (!emitted.ok()) {
        status = emitted;
        break;
      }
    }
    record->status = status;
    record->stop_requested = context.stop_token.stop_requested();
    return status;
  };
}

std::unique_ptr<c_data::StreamReader> Open(StreamRun run, CStreamOptions options = CStreamOptions::Defaults()) {
  ArrowArrayStream stream{};
  EXPECT_TRUE(ExportRunStream(ExecContext::Defaults(), NumberSchema(), std::move(run), std::move(options), &stream).ok());
  auto reader = c_data::StreamReader::Open(&stream);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::move(*reader) : nullptr;
}

TEST(CStreamRunTest, BatchesInOrderThenTheEndOnceTheRunReturned) {
  auto record = std::make_shared<RunRecord>();
  auto reader = Open(Counting(record, 50), [] {
    CStreamOptions options;
    options.max_batches = 3;
    return options;
  }());
  ASSERT_NE(reader, nullptr);
  EXPECT_TRUE(reader->schema()->Equals(*NumberSchema()));
  for (int64_t i = 0; i < 50; ++i) {
    auto batch = reader->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    ASSERT_NE(*batch, nullptr);
    EXPECT_EQ(ValueOf(**batch), i);
  }
  for (int call = 0; call < 2; ++call) {
    auto end = reader->Next();
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(*end, nullptr);
  }
  EXPECT_TRUE(record->status.ok());
}

TEST(CStreamRunTest, TheRunsErrorIsGetNextsErrorWithItsFullText) {
  const Status failure =
      Status::DataError("bad data CRC at byte offset 8209").WithFile("train-00003.tfrecord").WithRecord(41);
  auto record = std::make_shared<RunRecord>();
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportRunStream(ExecContext::Defaults(), NumberSchema(), Counting(record, 1, failure),
                              CStreamOptions::Defaults(), &stream)
                  .ok());
  // The raw C calls: the run's one batch may have been dropped by the abort; then EIO.
  int code = 0;
  for (int call = 0; call < 2 && code == 0; ++call) {
    ArrowArray array{};
    code = stream.get_next(&stream, &array);
    if (code == 0) {
      ASSERT_NE(array.release, nullptr);  // not the end: the run failed
      array.release(&array);
    }
  }
  EXPECT_EQ(code, EIO);
  ASSERT_NE(stream.get_last_error(&stream), nullptr);
  EXPECT_EQ(std::string(stream.get_last_error(&stream)), failure.ToString());
  ArrowArray again{};
  EXPECT_EQ(stream.get_next(&stream, &again), EIO);  // the stream stays failed
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

TEST(CStreamRunTest, ReleasingTheStreamCancelsAWaitingRunAndJoinsIt) {
  auto record = std::make_shared<RunRecord>();
  CStreamOptions options;
  options.max_batches = 1;
  auto reader = Open(Counting(record, /*count=*/-1), options);  // never ends by itself
  ASSERT_NE(reader, nullptr);
  for (int64_t i = 0; i < 3; ++i) {
    auto batch = reader->Next();
    ASSERT_TRUE(batch.ok());
    EXPECT_EQ(ValueOf(**batch), i);
  }
  reader.reset();  // release: returns once the run has returned
  EXPECT_EQ(record->status.code(), StatusCode::kCancelled);
  EXPECT_TRUE(record->stop_requested);
  EXPECT_EQ(record.use_count(), 1);  // the run (and what it captured) is gone
}

TEST(CStreamRunTest, ReleasingTheStreamStopsARunWaitingOnItsToken) {
  auto record = std::make_shared<RunRecord>();
  // The blocking hook: after one batch the run waits for a stop, as a run between units would
  // see one at its next check.
  auto reader = Open([record](const ExecContext& context, Sink* sink) {
    RETURN_NOT_OK(Feed(sink, Numbers(7)));
    context.stop_token.WaitForStop();
    record->status = context.stop_token.Poll();
    return record->status;
  });
  ASSERT_NE(reader, nullptr);
  auto batch = reader->Next();
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(ValueOf(**batch), 7);
  reader.reset();
  EXPECT_EQ(record->status.code(), StatusCode::kCancelled);
}

TEST(CStreamRunTest, BatchesTheConsumerTookOutliveTheStream) {
  auto record = std::make_shared<RunRecord>();
  ArrowArrayStream stream{};
  ASSERT_TRUE(ExportRunStream(ExecContext::Defaults(), NumberSchema(), Counting(record, -1),
                              CStreamOptions::Defaults(), &stream)
                  .ok());
  std::vector<ArrowArray> held(3);
  for (auto& array : held) ASSERT_EQ(stream.get_next(&stream, &array), 0);
  stream.release(&stream);
  for (size_t i = 0; i < held.size(); ++i) {
    ArrowArray& array = held[i];
    ASSERT_EQ(array.n_children, 1);
    const auto* values = static_cast<const int64_t*>(array.children[0]->buffers[1]);
    EXPECT_EQ(values[array.children[0]->offset], static_cast<int64_t>(i));
    array.release(&array);
  }
  EXPECT_EQ(record->status.code(), StatusCode::kCancelled);
}

TEST(CStreamRunTest, AnExceptionOfTheRunBecomesAnError) {
  auto reader = Open([](const ExecContext&, Sink*) -> Status { throw std::runtime_error("boom"); });
  ASSERT_NE(reader, nullptr);
  auto next = reader->Next();
  ASSERT_FALSE(next.ok());
  EXPECT_NE(next.status().message().find("the C stream's run threw: boom"), std::string::npos)
      << next.status().ToString();
}

TEST(CStreamRunTest, BadArgumentsLeaveTheStreamUntouched) {
  ArrowArrayStream stream{};
  auto record = std::make_shared<RunRecord>();
  EXPECT_EQ(ExportRunStream(ExecContext::Defaults(), nullptr, Counting(record, 1), CStreamOptions::Defaults(), &stream)
                .code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(ExportRunStream(ExecContext::Defaults(), NumberSchema(), nullptr, CStreamOptions::Defaults(), &stream)
                .code(),
            StatusCode::kInvalidArgument);
  CStreamOptions bad;
  bad.max_batches = 0;
  EXPECT_EQ(ExportRunStream(ExecContext::Defaults(), NumberSchema(), Counting(record, 1), bad, &stream).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(stream.release, nullptr);
}

}  // namespace
}  // namespace recflow::testing
