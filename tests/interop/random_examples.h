// Seeded random tf.Example / tf.SequenceExample messages for differential tests.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "example.pb.h"
#include "feature_values.h"

namespace recflow::interop {

/// How one feature name is filled across the generated records.
struct FeatureSpec {
  std::string name;
  FeatureValues::Kind kind = FeatureValues::Kind::kInt64;
  /// Present lists always hold exactly one value (so inference makes a scalar column).
  bool scalar = false;
  /// bytes only: every value is valid UTF-8 (so inference makes a utf8 column).
  bool utf8 = false;
  /// Probabilities that the feature is absent, present with no kind, or an empty list.
  double p_missing = 0.1;
  double p_kindless = 0.05;
  double p_empty = 0.1;
  /// Lists are usually short; with this probability they hold up to `long_length` values.
  double p_long = 0.02;
  int long_length = 5000;
};

/// Generates messages from a fixed seed (std::mt19937_64 is specified bit for bit, and the
/// generator derives every choice from it directly, so runs are reproducible everywhere).
class RandomExampleGenerator {
 public:
  explicit RandomExampleGenerator(uint64_t seed) : rng_(seed) {}

  /// A tf.Example with the features of `specs`.
  oracle::Example NextExample(const std::vector<FeatureSpec>& specs);
  /// A tf.SequenceExample: `context` like NextExample, `lists` as feature lists of 0..6 steps
  /// (a list is absent with p_missing; a step is an empty list with p_empty).
  oracle::SequenceExample NextSequenceExample(const std::vector<FeatureSpec>& context,
                                              const std::vector<FeatureSpec>& lists);

  /// A value of `spec`'s kind (ints across the whole range, floats including NaNs with
  /// payloads, infinities, -0 and subnormals, bytes empty to ~1 MB).
  FeatureValues RandomValues(const FeatureSpec& spec, size_t count);

 private:
  bool Chance(double p);
  uint64_t Below(uint64_t n) { return rng_() % n; }
  int64_t RandomInt64();
  uint32_t RandomFloatBits();
  std::string RandomBytes(bool utf8);
  size_t RandomLength(const FeatureSpec& spec);

  std::mt19937_64 rng_;
};

/// A varied set of feature specs: all three kinds, scalars (never empty) and lists, binary and UTF-8 bytes,
/// the empty name, names with NUL and non-ASCII UTF-8 characters, a feature that is always
/// empty, one that never has a kind, one that is always present.
std::vector<FeatureSpec> VariedFeatureSpecs();

}  // namespace recflow::interop
