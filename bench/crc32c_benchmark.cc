// CRC32C throughput: SSE4.2 hardware path vs portable slicing-by-8 vs memcpy of the same bytes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "recflow/core/crc32c.h"

namespace recflow {
namespace {

std::vector<uint8_t> RandomBytes(size_t n) {
  std::mt19937 rng(42);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

void BM_Crc32cHardware(benchmark::State& state) {
  if (!Crc32cHardwareAvailable()) {
    state.SkipWithError("no SSE4.2 on this CPU");
    return;
  }
  const auto data = RandomBytes(static_cast<size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(Crc32cExtendHardware(0, data.data(), data.size()));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

void BM_Crc32cPortable(benchmark::State& state) {
  const auto data = RandomBytes(static_cast<size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(Crc32cExtendPortable(0, data.data(), data.size()));
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

void BM_Memcpy(benchmark::State& state) {
  const auto data = RandomBytes(static_cast<size_t>(state.range(0)));
  std::vector<uint8_t> copy(data.size());
  for (auto _ : state) {
    std::memcpy(copy.data(), data.data(), data.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

BENCHMARK(BM_Crc32cHardware)->Arg(4 << 10)->Arg(64 << 10)->Arg(1 << 20);
BENCHMARK(BM_Crc32cPortable)->Arg(4 << 10)->Arg(64 << 10)->Arg(1 << 20);
BENCHMARK(BM_Memcpy)->Arg(4 << 10)->Arg(64 << 10)->Arg(1 << 20);

}  // namespace
}  // namespace recflow
