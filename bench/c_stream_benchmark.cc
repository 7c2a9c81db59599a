// Batches/s of TensorFlow's mnist.tfrecord read by one stage into a C Data stream and pulled by a consumer thread
// (ExportRunStream + get_next), next to the same stage into a sink that only counts (a direct in-process read), for
// small and larger batches; malloc tuned as the recflow command tunes it (else the direct read, whose stage runs on
// the main thread, pays glibc's main-arena trimming and the comparison measures that).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "recflow/formats/c_stream_run.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"
#include "recflow/pipeline/read_stream.h"
#include "recflow/testing/testdata.h"

namespace {

using recflow::ExecContext;
using recflow::RecordBatch;
using recflow::Result;
using recflow::Sink;
using recflow::SinkLocalState;
using recflow::SinkPartial;
using recflow::Status;

/// mnist.tfrecord (1000 tf.Examples of 784 floats, 3.2 MB) in units of state.range(1) KiB
/// (16: about 200 batches of 5 rows; 256: 13 batches of 80).
std::shared_ptr<recflow::Source> OpenMnist(benchmark::State& state) {
  recflow::tfrecord::SourceOptions options;
  options.unit_bytes = state.range(1) << 10;
  options.inference_records = 20;
  const std::string path = (recflow::testing::TestdataDir() / "tfrecord/tfx/mnist.tfrecord").string();
  auto source = recflow::tfrecord::OpenTfrecordSource(path, options);
  if (!source.ok()) {
    state.SkipWithError(source.status().ToString().c_str());
    return nullptr;
  }
  return std::shared_ptr<recflow::Source>(std::move(*source));
}

/// The direct read's end: counts the batches it is handed, in order, and keeps nothing.
class CountingSink final : public Sink {
 public:
  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState*, const std::shared_ptr<RecordBatch>& batch) const override {
    benchmark::DoNotOptimize(batch.get());
    return std::make_unique<SinkPartial>();
  }
  Status Merge(SinkPartial*) override { return Status::OK(); }
  Status Emit(SinkPartial*) override {
    ++batches;
    return Status::OK();
  }
  int64_t batches = 0;
};

ExecContext Threads(benchmark::State& state) {
  ExecContext context;
  context.threads = static_cast<int>(state.range(0));
  return context;
}

void BM_DirectStage(benchmark::State& state) {
  int64_t batches = 0;
  for (auto _ : state) {
    auto source = OpenMnist(state);
    if (source == nullptr) return;
    CountingSink sink;
    const Status st = recflow::pipeline::ReadIntoStream(source)(Threads(state), &sink);
    if (!st.ok()) return state.SkipWithError(st.ToString().c_str());
    batches += sink.batches;
  }
  state.counters["batches/s"] = benchmark::Counter(static_cast<double>(batches), benchmark::Counter::kIsRate);
}

void BM_CStream(benchmark::State& state) {
  int64_t batches = 0;
  for (auto _ : state) {
    auto source = OpenMnist(state);
    if (source == nullptr) return;
    ArrowArrayStream stream{};
    const Status st = recflow::ExportRunStream(Threads(state), source->schema(), recflow::pipeline::ReadIntoStream(source),
                                               recflow::CStreamOptions::Defaults(), &stream);
    if (!st.ok()) return state.SkipWithError(st.ToString().c_str());
    for (;;) {
      ArrowArray array{};
      if (stream.get_next(&stream, &array) != 0) {
        state.SkipWithError(stream.get_last_error(&stream));
        break;
      }
      if (array.release == nullptr) break;
      benchmark::DoNotOptimize(array.children);
      array.release(&array);
      ++batches;
    }
    stream.release(&stream);
  }
  state.counters["batches/s"] = benchmark::Counter(static_cast<double>(batches), benchmark::Counter::kIsRate);
}

// Arguments: threads, unit KiB. The CPU column is the whole process's (the stream's producer
// thread and TBB's workers included): on a loaded machine the cost per batch, while batches/s
// also depends on how many runnable threads each side has.
BENCHMARK(BM_DirectStage)
    ->ArgsProduct({{1, 2}, {16, 256}})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();
BENCHMARK(BM_CStream)
    ->ArgsProduct({{1, 2}, {16, 256}})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

}  // namespace
