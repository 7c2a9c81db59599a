// Tests of IpcStreamSink: IpcWriter's bytes for the same batches on 1 and 4 threads, dictionaries, a failing output,
// one gathered write of the arrays' own bytes per batch.
#include "recflow/formats/arrow_ipc/ipc_stream_sink.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "recflow/columnar/array.h"
#include "recflow/formats/arrow_ipc/dictionary_test_util_internal.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/testing/failing_output.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow::arrow_ipc {
namespace {

using Batches = std::vector<std::shared_ptr<RecordBatch>>;

/// Runs `f(i)` for i in [0, n) on `threads` threads, each taking every threads-th index.
template <typename F>
void ParallelFor(size_t n, int threads, F f) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (size_t i = static_cast<size_t>(t); i < n; i += static_cast<size_t>(threads)) f(i);
    });
  }
  for (auto& thread : pool) thread.join();
}

/// Feeds `batches` to `sink` as the stage executor does: Consume and Process concurrently on
/// `threads` threads, Merge and Emit in input order, then Drain and Finish.
Status Drive(IpcStreamSink& sink, const Batches& batches, int threads) {
  std::vector<std::unique_ptr<SinkPartial>> partials(batches.size());
  std::vector<Status> errors(batches.size());
  ParallelFor(batches.size(), threads, [&](size_t i) {
    auto partial = sink.Consume(nullptr, batches[i]);
    if (partial.ok()) partials[i] = std::move(partial).ValueUnsafe();
    else errors[i] = partial.status();
  });
  for (size_t i = 0; i < batches.size(); ++i) {
    RETURN_NOT_OK(errors[i]);
    RETURN_NOT_OK(sink.Merge(partials[i].get()));
  }
  ParallelFor(batches.size(), threads, [&](size_t i) { errors[i] = sink.Process(partials[i].get()); });
  for (size_t i = 0; i < batches.size(); ++i) {
    RETURN_NOT_OK(errors[i]);
    RETURN_NOT_OK(sink.Emit(partials[i].get()));
  }
  ASSIGN_OR_RETURN(auto rest, sink.Drain());
  if (rest != nullptr) {
    RETURN_NOT_OK(sink.Process(rest.get()));
    RETURN_NOT_OK(sink.Emit(rest.get()));
  }
  return sink.Finish();
}

/// The sink's stream of `batches` on `threads` threads.
std::string SinkBytes(const Batches& batches, const IpcStreamSinkOptions& options, int threads) {
  BufferOutputStream out;
  auto sink = IpcStreamSink::Open(&out, batches[0]->schema(), options);
  EXPECT_TRUE(sink.ok()) << sink.status().ToString();
  if (!sink.ok()) return "";
  const Status st = Drive(**sink, batches, threads);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return std::string(out.Finish()->view());
}

/// IpcWriter's stream of `batches` after rebatching them as `options` say.
std::string WriterBytes(const Batches& batches, const IpcStreamSinkOptions& options) {
  Rebatcher rebatcher(options.batch_rows, options.batch_mode);
  Batches cut;
  for (const auto& batch : batches) {
    for (auto& b : *rebatcher.Add(batch)) cut.push_back(b);
  }
  for (auto& b : *rebatcher.Finish()) cut.push_back(b);
  BufferOutputStream out;
  auto writer = IpcWriter::OpenStream(&out, batches[0]->schema(), options.ipc);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  for (const auto& b : cut) EXPECT_TRUE((*writer)->Write(*b).ok());
  EXPECT_TRUE((*writer)->Finish().ok());
  return std::string(out.Finish()->view());
}

/// Batches of an int64 column `x` (0, 1, 2, ...) and a utf8 column `s`, of the sizes given.
Batches Numbered(const std::vector<int64_t>& sizes) {
  auto schema = Schema::Make({Field::Make("x", int64(), false), Field::Make("s", utf8(), true)});
  Batches out;
  int64_t next = 0;
  for (int64_t n : sizes) {
    std::vector<int64_t> xs;
    std::vector<int32_t> offsets{0};
    std::string text;
    for (int64_t i = 0; i < n; ++i, ++next) {
      xs.push_back(next);
      text += "row " + std::to_string(next);
      offsets.push_back(static_cast<int32_t>(text.size()));
    }
    auto x = ArrayData::Make(int64(), n, {nullptr, recflow::testing::BufferOf(xs)}, 0);
    auto s = ArrayData::Make(utf8(), n, {nullptr, recflow::testing::BufferOf(offsets), Buffer::FromString(text)}, 0);
    out.push_back(*RecordBatch::Make(schema, n, {x, s}));
  }
  return out;
}

TEST(IpcStreamSinkTest, WritesIpcWritersBytesForTheRebatchedRowsOnOneAndFourThreads) {
  const Batches batches = Numbered({700, 0, 1500, 3, 2000, 911, 64});
  for (const auto compression : {IpcWriteOptions::Compression::kNone, IpcWriteOptions::Compression::kZstd,
                                  IpcWriteOptions::Compression::kLz4Frame}) {
    for (const auto mode : {BatchMode::kKeepRemainder, BatchMode::kDropRemainder, BatchMode::kAuto}) {
      IpcStreamSinkOptions options;
      options.batch_rows = 1000;
      options.batch_mode = mode;
      options.ipc.compression = compression;
      SCOPED_TRACE(static_cast<int>(mode));
      const std::string expected = WriterBytes(batches, options);
      EXPECT_EQ(SinkBytes(batches, options, 1), expected);
      EXPECT_EQ(SinkBytes(batches, options, 4), expected);
    }
  }
}

TEST(IpcStreamSinkTest, StreamReadsBackAsTheRowsInOrder) {
  IpcStreamSinkOptions options;
  options.batch_rows = 1000;
  const std::string bytes = SinkBytes(Numbered({700, 1500, 3}), options, 4);
  auto reader = IpcStreamReader::Open(Buffer::FromString(bytes), "<sink>");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  std::vector<int64_t> sizes;
  int64_t next = 0;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (*batch == nullptr) break;
    sizes.push_back((*batch)->num_rows());
    Int64Array x((*batch)->column_data(0));
    for (int64_t i = 0; i < x.length(); ++i) ASSERT_EQ(x.Value(i), next++);
  }
  EXPECT_EQ(sizes, (std::vector<int64_t>{1000, 1000, 203}));
}

TEST(IpcStreamSinkTest, DictionariesAreWrittenFirstThenAsDeltasAndReplacementsAsIpcWriterDoes) {
  using testing::DictionaryBatch;
  const Batches batches = {
      DictionaryBatch({0, 1, 1}, "ab", {0, 1, 2}),
      DictionaryBatch({1, 0}, "ab", {0, 1, 2}),        // the same dictionary: no message
      DictionaryBatch({2, 0}, "abc", {0, 1, 2, 3}),   // extends it: a delta
      DictionaryBatch({0}, "xy", {0, 1, 2}),          // neither: a replacement
  };
  IpcStreamSinkOptions options;
  options.batch_mode = BatchMode::kAuto;  // one stream batch per input batch
  const std::string expected = WriterBytes(batches, options);
  EXPECT_EQ(SinkBytes(batches, options, 1), expected);
  EXPECT_EQ(SinkBytes(batches, options, 4), expected);
}

TEST(IpcStreamSinkTest, AnOutputFailingMidStreamFailsEmitAndFinishAndNothingMoreIsWritten) {
  const Batches batches = Numbered({1000, 1000, 1000, 1000});
  IpcStreamSinkOptions options;
  options.batch_rows = 1000;
  recflow::testing::FailingOutputStream out(20000, "<peer>: connection reset by peer");  // the schema and about one batch
  auto sink = IpcStreamSink::Open(&out, batches[0]->schema(), options);
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  const Status st = Drive(**sink, batches, 4);
  ASSERT_EQ(st.code(), StatusCode::kIOError) << st.ToString();
  EXPECT_NE(st.message().find("connection reset"), std::string::npos);
  const int writes = out.writes();
  EXPECT_EQ((*sink)->Finish().code(), StatusCode::kIOError);
  EXPECT_EQ(out.writes(), writes);  // no end-of-stream after the cut
}

/// Keeps what is written and, for each gathered write, where its pieces were.
class GatherRecorder final : public OutputStream {
 public:
  Status Write(const void* data, int64_t n) override {
    bytes_.append(static_cast<const char*>(data), static_cast<size_t>(n));
    return Status::OK();
  }
  Status WriteGathered(std::span<const std::string_view> pieces) override {
    gathered_.emplace_back();
    for (std::string_view piece : pieces) {
      gathered_.back().push_back(piece.data());
      bytes_ += piece;
    }
    return Status::OK();
  }
  Status Flush() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  int64_t position() const override { return static_cast<int64_t>(bytes_.size()); }
  const std::string& name() const override { return name_; }
  const std::string& bytes() const { return bytes_; }
  /// The addresses of the pieces of each gathered write.
  const std::vector<std::vector<const char*>>& gathered() const { return gathered_; }

 private:
  std::string bytes_;
  std::vector<std::vector<const char*>> gathered_;
  std::string name_ = "recorder";
};

/// True when one of `pieces` starts at the values of `batch`'s int64 column (written uncopied).
bool PointsIntoTheBatch(const std::vector<const char*>& pieces, const RecordBatch& batch) {
  const auto* values = reinterpret_cast<const char*>(batch.column_data(0)->GetValues<int64_t>(1));
  return std::find(pieces.begin(), pieces.end(), values) != pieces.end();
}

TEST(IpcStreamSinkTest, EachEmitAndEachIpcWriterBatchIsOneGatheredWriteOfTheArraysOwnBytes) {
  const Batches batches = Numbered({1000, 1000, 1000});
  IpcStreamSinkOptions options;
  options.batch_mode = BatchMode::kAuto;  // one stream batch per input batch
  GatherRecorder sink_out;
  auto sink = IpcStreamSink::Open(&sink_out, batches[0]->schema(), options);
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  ASSERT_TRUE(Drive(**sink, batches, 1).ok());
  ASSERT_EQ(sink_out.gathered().size(), batches.size()) << "one gathered write per Emit";
  GatherRecorder writer_out;
  auto writer = IpcWriter::OpenStream(&writer_out, batches[0]->schema(), options.ipc);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  for (const auto& batch : batches) ASSERT_TRUE((*writer)->Write(*batch).ok());
  ASSERT_TRUE((*writer)->Finish().ok());
  ASSERT_EQ(writer_out.gathered().size(), batches.size()) << "one gathered write per batch";
  for (size_t i = 0; i < batches.size(); ++i) {
    EXPECT_TRUE(PointsIntoTheBatch(sink_out.gathered()[i], *batches[i])) << "the sink copied batch " << i;
    EXPECT_TRUE(PointsIntoTheBatch(writer_out.gathered()[i], *batches[i])) << "IpcWriter copied batch " << i;
  }
  EXPECT_EQ(sink_out.bytes(), WriterBytes(batches, options));
  EXPECT_EQ(writer_out.bytes(), sink_out.bytes());
}

TEST(IpcStreamSinkTest, ByDefaultCutsBatchesOfServesDefaultSize) {
  // One default for every IPC stream a consumer did not size: 20 000 rows go out as 16 384 + 3616.
  const Batches batches = Numbered({5000, 15000});
  IpcStreamSinkOptions served;
  served.batch_rows = 16384;
  EXPECT_EQ(SinkBytes(batches, IpcStreamSinkOptions{}, 2), WriterBytes(batches, served));
}

TEST(IpcStreamSinkTest, RefusesABatchOfAnotherSchemaAndAZeroBatchSize) {
  BufferOutputStream out;
  auto sink = IpcStreamSink::Open(&out, Numbered({1})[0]->schema(), IpcStreamSinkOptions{});
  ASSERT_TRUE(sink.ok());
  auto other = (*sink)->Consume(nullptr, testing::DictionaryBatch({0}, "a", {0, 1}));
  EXPECT_EQ(other.status().code(), StatusCode::kInvalidArgument);
  IpcStreamSinkOptions zero;
  zero.batch_rows = 0;
  EXPECT_FALSE(IpcStreamSink::Open(&out, Numbered({1})[0]->schema(), zero).ok());
}

}  // namespace
}  // namespace recflow::arrow_ipc
