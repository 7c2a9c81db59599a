// ElementRandom: counter-based random bits per (seed, row, stream), reproducible on any thread.
#pragma once

#include <cstdint>

namespace recflow::ops {

/// Streams of ElementRandom used by the built-in image kernels, so that each random choice
/// of a row is independent of the others.
inline constexpr uint64_t kCropStream = 1;
inline constexpr uint64_t kFlipStream = 2;

/// SplitMix64's output function of x + the golden-ratio increment: a bijective 64-bit mixer.
constexpr uint64_t SplitMix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// 64 random bits for element `element_index` (the row's index in the whole dataset) of
/// random `stream` under `seed`. A pure function of its arguments: the same row gets the same
/// bits whichever thread, batch or run computes it.
constexpr uint64_t ElementRandom(uint64_t seed, uint64_t element_index, uint64_t stream) {
  return SplitMix64(SplitMix64(SplitMix64(seed) ^ stream) ^ element_index);
}

}  // namespace recflow::ops
