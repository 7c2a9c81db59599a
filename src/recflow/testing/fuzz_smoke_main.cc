// Smoke driver for libFuzzer targets in ordinary builds: runs the seed corpus and a fixed number
// of deterministic mutations of it through LLVMFuzzerTestOneInput (ctest label fuzz-smoke).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

using Bytes = std::vector<uint8_t>;

void Collect(const std::filesystem::path& p, std::vector<Bytes>* out) {
  if (std::filesystem::is_directory(p)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(p)) {
      if (entry.is_regular_file()) Collect(entry.path(), out);
    }
    return;
  }
  std::ifstream in(p, std::ios::binary);
  if (!in) return;
  Bytes bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Large real files are cut to keep each run quick; their prefix still exercises the reader.
  if (bytes.size() > (1u << 16)) bytes.resize(1u << 16);
  out->push_back(std::move(bytes));
}

Bytes Mutate(const Bytes& seed, std::mt19937_64& rng) {
  Bytes b = seed;
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 6) {
      case 0:  // flip a bit
        if (!b.empty()) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      case 1:  // set an interesting byte
        if (!b.empty()) {
          static constexpr uint8_t kInteresting[] = {0x00, 0x01, 0x7f, 0x80, 0xff, 0x0a, 0x12, 0x1a};
          b[rng() % b.size()] = kInteresting[rng() % sizeof(kInteresting)];
        }
        break;
      case 2:  // truncate
        if (!b.empty()) b.resize(rng() % b.size());
        break;
      case 3:  // insert random bytes
      {
        const size_t at = b.empty() ? 0 : rng() % (b.size() + 1);
        const size_t n = 1 + rng() % 16;
        for (size_t i = 0; i < n; ++i) b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), static_cast<uint8_t>(rng()));
        break;
      }
      case 4:  // duplicate a chunk
        if (b.size() > 2) {
          const size_t from = rng() % b.size();
          const size_t n = 1 + rng() % std::min<size_t>(64, b.size() - from);
          Bytes chunk(b.begin() + static_cast<std::ptrdiff_t>(from), b.begin() + static_cast<std::ptrdiff_t>(from + n));
          b.insert(b.begin() + static_cast<std::ptrdiff_t>(rng() % b.size()), chunk.begin(), chunk.end());
        }
        break;
      default:  // overwrite 8 bytes with a random little-endian integer
        if (b.size() >= 8) {
          const size_t at = rng() % (b.size() - 7);
          uint64_t v = rng() >> (rng() % 64);
          for (int i = 0; i < 8; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
        }
        break;
    }
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Bytes> seeds;
  for (int i = 1; i < argc; ++i) Collect(argv[i], &seeds);
  seeds.push_back({});
  long iterations = 20000;
  if (const char* env = std::getenv("RECFLOW_FUZZ_SMOKE_ITERATIONS")) iterations = std::atol(env);
  for (const Bytes& s : seeds) LLVMFuzzerTestOneInput(s.data(), s.size());
  std::mt19937_64 rng(0x5eed);
  for (long i = 0; i < iterations; ++i) {
    Bytes b = Mutate(seeds[static_cast<size_t>(rng() % seeds.size())], rng);
    LLVMFuzzerTestOneInput(b.data(), b.size());
  }
  std::printf("fuzz-smoke: %zu seeds and %ld mutated inputs ran without a crash\n", seeds.size(), iterations);
  return 0;
}
