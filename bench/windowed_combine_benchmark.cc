// Windowed count and sum per key from a test stream (fixed 60 s windows over 1000 keys; 60 s sessions over 100 000
// keys), events per second on one thread and per CPU second of the process (the per-core rate on a loaded
// machine), beside the same count and sum per key without windows (the batch combine_per_key over the same rows)
// in the same run. The test stream is parsed when the pipeline is built, outside the timing.
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <random>
#include <string>

#include "recflow/core/memory_filesystem.h"
#include "recflow/pipeline/collect_sink.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/test_stream_source.h"

namespace {

using namespace recflow;

// User + system CPU seconds of the whole process so far (every thread).
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}
using namespace recflow::pipeline;

constexpr int64_t kEvents = 1'000'000;
constexpr int64_t kBundle = 10'000;

// A test stream of kEvents events over `keys` keys, 60 events per second of event time per key on average
// (spread over `span_ms`), out of order by up to 2 s, each bundle followed by a watermark no later event is behind.
std::shared_ptr<MemoryFileSystem> Stream(int64_t keys, int64_t span_ms) {
  std::mt19937_64 rng(17);
  std::vector<int64_t> ts(kEvents);
  for (int64_t i = 0; i < kEvents; ++i) ts[i] = i * span_ms / kEvents + static_cast<int64_t>(rng() % 2000);
  std::vector<int64_t> suffix_min(kEvents + 1, INT64_MAX);
  for (int64_t i = kEvents; i-- > 0;) suffix_min[i] = std::min(suffix_min[i + 1], ts[i]);
  std::string text;
  for (int64_t start = 0; start < kEvents; start += kBundle) {
    text += "{\"elements\": [";
    for (int64_t i = start; i < start + kBundle; ++i) {
      text += (i > start ? ", " : "") + std::string("{\"ts\": ") + std::to_string(ts[i]) + ", \"key\": " +
              std::to_string(rng() % keys) + ", \"value\": " + std::to_string(static_cast<int64_t>(rng() % 1000)) + "}";
    }
    text += "]}\n";
    if (start + kBundle < kEvents) text += "{\"watermark\": " + std::to_string(suffix_min[start + kBundle]) + "}\n";
  }
  auto fs = std::make_shared<MemoryFileSystem>();
  auto out = fs->OpenOutputStream("/stream.jsonl");
  (void)(*out)->Write(text.data(), static_cast<int64_t>(text.size()));
  (void)(*out)->Close();
  return fs;
}

const std::shared_ptr<MemoryFileSystem>& FixedStream() {
  static const auto fs = Stream(1000, 3'600'000);
  return fs;
}
const std::shared_ptr<MemoryFileSystem>& SessionStream() {
  static const auto fs = Stream(100'000, 300'000);
  return fs;
}

// Runs test_stream → [window] → count and sum per key into a collecting sink; `windowed` false is the peer.
void Run(benchmark::State& state, const std::shared_ptr<MemoryFileSystem>& fs, const window::WindowFn& fn, bool windowed) {
  int64_t panes = 0;
  double cpu = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Pipeline p;
    p.set_file_system(fs);
    PCollection rows = p.Read("stream", [](const std::shared_ptr<FileSystem>& f) { return OpenTestStream(*f, "/stream.jsonl"); });
    if (windowed) rows = p.Window("window", rows, Windowing{window::WindowingStrategy{fn, {}, {}, 0, {}}, "ts", false});
    p.CombinePerKey("count", rows, {"key"},
                    {Aggregate{"", *BuiltinCombiner("count_all"), "count"}, Aggregate{"value", *BuiltinCombiner("sum"), "sum"}});
    if (!p.status().ok()) {
      state.SkipWithError(p.status().ToString().c_str());
      return;
    }
    CollectSink out;
    RunOptions options = RunOptions::Defaults();
    options.outputs["count"] = &out;
    ExecContext context;
    context.threads = 1;
    context.file_system = fs;
    state.ResumeTiming();
    const double cpu_before = CpuSeconds();
    auto result = RunPipeline(context, p, options, nullptr);
    cpu += CpuSeconds() - cpu_before;
    state.PauseTiming();
    if (!result.ok()) {
      state.SkipWithError(result.status().ToString().c_str());
      return;
    }
    panes = 0;
    for (const auto& batch : out.TakeBatches()) panes += batch->num_rows();
    state.ResumeTiming();
  }
  state.counters["output_rows"] = static_cast<double>(panes);
  state.counters["events_per_cpu_s"] = static_cast<double>(state.iterations() * kEvents) / cpu;
  state.SetItemsProcessed(state.iterations() * kEvents);
}

void BM_FixedWindows60s_1kKeys(benchmark::State& state) { Run(state, FixedStream(), window::WindowFn::Fixed(60'000), true); }
void BM_Peer_NoWindows_1kKeys(benchmark::State& state) { Run(state, FixedStream(), {}, false); }
void BM_Sessions60s_100kKeys(benchmark::State& state) { Run(state, SessionStream(), window::WindowFn::Sessions(60'000), true); }
void BM_Peer_NoWindows_100kKeys(benchmark::State& state) { Run(state, SessionStream(), {}, false); }

BENCHMARK(BM_FixedWindows60s_1kKeys)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Peer_NoWindows_1kKeys)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Sessions60s_100kKeys)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_Peer_NoWindows_100kKeys)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace
