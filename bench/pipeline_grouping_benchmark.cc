// GroupByKey pipeline: 8 M rows grouped into 1 M keys, then a Map and a sum over the groups in the next stage, on 1
// and 2 threads; the peak resident set is reported beside the time (run one argument per process to compare it).
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include "recflow/columnar/builder.h"
#include "recflow/pipeline/column_do_fn.h"
#include "recflow/pipeline/local_runner.h"

namespace {

using namespace recflow;
using namespace recflow::pipeline;

constexpr int64_t kRows = 8'000'000;
constexpr int64_t kKeys = 1'000'000;
constexpr int64_t kRowsPerBatch = 64 * 1024;

std::vector<std::shared_ptr<RecordBatch>> Batches() {
  std::vector<std::shared_ptr<RecordBatch>> out;
  auto schema = Schema::Make({Field::Make("key", int64(), false), Field::Make("value", int64(), false)});
  for (int64_t start = 0; start < kRows; start += kRowsPerBatch) {
    const int64_t n = std::min(kRowsPerBatch, kRows - start);
    Int64Builder keys, values;
    int64_t* k = nullptr;
    int64_t* v = nullptr;
    (void)keys.AppendUninitialized(n, &k);
    (void)values.AppendUninitialized(n, &v);
    for (int64_t i = 0; i < n; ++i) {
      k[i] = (start + i) * 7919 % kKeys;
      v[i] = start + i;
    }
    out.push_back(*RecordBatch::Make(schema, n, {*keys.Finish(), *values.Finish()}));
  }
  return out;
}

Result<std::shared_ptr<ArrayData>> AddOne(const std::shared_ptr<ArrayData>& in, ProcessContext&) {
  Int64Builder b;
  int64_t* out = nullptr;
  RETURN_NOT_OK(b.AppendUninitialized(in->length, &out));
  const int64_t* x = in->GetValues<int64_t>(1);
  for (int64_t i = 0; i < in->length; ++i) out[i] = x[i] + 1;
  return b.Finish();
}

void BM_GroupByKeyThenMapAndSum(benchmark::State& state) {
  const auto batches = Batches();
  for (auto _ : state) {
    Pipeline p;
    PCollection rows = p.Create("rows", batches[0]->schema(), batches);
    PCollection grouped = p.GroupByKey("group", rows, {"key"});
    PCollection mapped =
        p.ParDo("map", grouped, MakeColumnDoFn({ColumnJob{"key", Field::Make("key", int64(), false), AddOne}}));
    p.CombineGlobally("sum", mapped, {Aggregate{"key", *BuiltinCombiner("sum"), "sum"}});
    ExecContext context;
    context.threads = static_cast<int>(state.range(0));
    auto result = RunPipeline(context, p, RunOptions::Defaults(), nullptr);
    if (!result.ok()) state.SkipWithError(result.status().ToString().c_str());
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_MB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  state.SetItemsProcessed(state.iterations() * kRows);
}

BENCHMARK(BM_GroupByKeyThenMapAndSum)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

}  // namespace

