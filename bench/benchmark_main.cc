// The main of every benchmark binary: the allocator tuned as the `recflow` command tunes it, then Google Benchmark.
#include <benchmark/benchmark.h>

#include "recflow/core/allocator_tuning.h"

int main(int argc, char** argv) {
  // Without it glibc's dynamic thresholds trim and regrow the heap top on every batch-sized free,
  // depending on where small blocks happen to land: timings then follow the allocation order.
  recflow::TuneAllocator();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
