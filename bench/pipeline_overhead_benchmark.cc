// Pipeline engine overhead: a chain of 5 trivial Maps over 100 M small rows, on 1 and 2 threads, next to the same
// five passes as a bare parallel loop over the same batches on as many threads (the peer: the Maps without the engine).
#include <benchmark/benchmark.h>

#include <atomic>

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "recflow/columnar/builder.h"
#include "recflow/pipeline/column_do_fn.h"
#include "recflow/pipeline/local_runner.h"

namespace {

using namespace recflow;
using namespace recflow::pipeline;

constexpr int64_t kRows = 100'000'000;
constexpr int64_t kRowsPerBatch = 64 * 1024;
constexpr int kMaps = 5;

const std::vector<std::shared_ptr<RecordBatch>>& Batches() {
  static const auto batches = [] {
    std::vector<std::shared_ptr<RecordBatch>> out;
    auto schema = Schema::Make({Field::Make("x", int64(), false)});
    for (int64_t start = 0; start < kRows; start += kRowsPerBatch) {
      const int64_t n = std::min(kRowsPerBatch, kRows - start);
      Int64Builder b;
      int64_t* values = nullptr;
      (void)b.AppendUninitialized(n, &values);
      for (int64_t i = 0; i < n; ++i) values[i] = start + i;
      out.push_back(*RecordBatch::Make(schema, n, {*b.Finish()}));
    }
    return out;
  }();
  return batches;
}

// x + 1 over a column: the trivial work of each Map.
Result<std::shared_ptr<ArrayData>> AddOne(const ArrayData& in) {
  Int64Builder b;
  int64_t* out = nullptr;
  RETURN_NOT_OK(b.AppendUninitialized(in.length, &out));
  const int64_t* x = in.GetValues<int64_t>(1);
  for (int64_t i = 0; i < in.length; ++i) out[i] = x[i] + 1;
  return b.Finish();
}

void BM_FiveMapsInThePipeline(benchmark::State& state) {
  const auto& batches = Batches();
  for (auto _ : state) {
    Pipeline p;
    PCollection rows = p.Create("rows", batches[0]->schema(), batches);
    for (int m = 0; m < kMaps; ++m) {
      rows = p.ParDo("map" + std::to_string(m), rows,
                     MakeColumnDoFn({ColumnJob{"x", Field::Make("x", int64(), false),
                                               [](const std::shared_ptr<ArrayData>& in, ProcessContext&) {
                                                 return AddOne(*in);
                                               }}}));
    }
    p.CombineGlobally("sum", rows, {Aggregate{"x", *BuiltinCombiner("sum"), "sum"}});
    ExecContext context;
    context.threads = static_cast<int>(state.range(0));
    auto result = RunPipeline(context, p, RunOptions::Defaults(), nullptr);
    if (!result.ok()) state.SkipWithError(result.status().ToString().c_str());
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}

// The peer: the same five passes and sum, batches split over `threads` workers by a plain
// parallel loop (no pipeline: no units, stages, metrics or in-order merge).
void BM_FiveMapsBareLoop(benchmark::State& state) {
  const auto& batches = Batches();
  tbb::task_arena arena(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    std::atomic<int64_t> sum{0};
    arena.execute([&] {
      tbb::parallel_for(size_t{0}, batches.size(), [&](size_t b) {
        std::shared_ptr<ArrayData> column = batches[b]->column_data(0);
        for (int m = 0; m < kMaps; ++m) column = *AddOne(*column);
        const int64_t* x = column->GetValues<int64_t>(1);
        int64_t local = 0;
        for (int64_t i = 0; i < column->length; ++i) local += x[i];
        sum.fetch_add(local, std::memory_order_relaxed);
      });
    });
    benchmark::DoNotOptimize(sum.load());
  }
  state.SetItemsProcessed(state.iterations() * kRows);
}

BENCHMARK(BM_FiveMapsBareLoop)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);
BENCHMARK(BM_FiveMapsInThePipeline)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace
