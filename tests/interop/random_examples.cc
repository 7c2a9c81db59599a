// Seeded random tf.Example / tf.SequenceExample messages for differential tests.
#include "random_examples.h"

#include <cstring>
#include <limits>

namespace recflow::interop {
namespace {

using Kind = FeatureValues::Kind;

constexpr int64_t kSpecialInts[] = {
    0, 1, -1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 127, 128, -128, 1LL << 35};
constexpr uint32_t kSpecialFloats[] = {
    0x7FC00000u,  // quiet NaN
    0xFFC00001u,  // negative quiet NaN with a payload
    0x7F800001u,  // signalling NaN
    0x7F800000u,  // +inf
    0xFF800000u,  // -inf
    0x80000000u,  // -0
    0x00000001u,  // smallest subnormal
    0x7F7FFFFFu,  // largest finite
};
// Multi-byte UTF-8 pieces: 2, 3 and 4 bytes.
constexpr const char* kUtf8Pieces[] = {"\xC3\xA9", "\xE5\x90\x8D", "\xF0\x9F\x90\xA7", "a", " ", "\x7F"};

}  // namespace

bool RandomExampleGenerator::Chance(double p) { return static_cast<double>(rng_() >> 11) * 0x1.0p-53 < p; }

int64_t RandomExampleGenerator::RandomInt64() {
  switch (Below(4)) {
    case 0:
      return kSpecialInts[Below(std::size(kSpecialInts))];
    case 1:
      return static_cast<int64_t>(Below(200)) - 100;
    default:
      return static_cast<int64_t>(rng_());
  }
}

uint32_t RandomExampleGenerator::RandomFloatBits() {
  if (Chance(0.2)) return kSpecialFloats[Below(std::size(kSpecialFloats))];
  if (Chance(0.5)) {
    float v = static_cast<float>(static_cast<int64_t>(Below(20000)) - 10000) / 64.0f;
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    return bits;
  }
  return static_cast<uint32_t>(rng_());
}

std::string RandomExampleGenerator::RandomBytes(bool utf8) {
  size_t length = Chance(0.15) ? 0 : Below(24);
  if (Chance(0.002)) length = (1 << 20) + Below(4096);  // huge
  std::string out;
  if (utf8) {
    while (out.size() < length) out += kUtf8Pieces[Below(std::size(kUtf8Pieces))];
    return out;
  }
  out.resize(length);
  for (char& c : out) c = static_cast<char>(rng_());
  if (!out.empty()) out[0] = '\xFF';  // never valid UTF-8
  return out;
}

size_t RandomExampleGenerator::RandomLength(const FeatureSpec& spec) {
  if (spec.scalar) return 1;
  if (Chance(spec.p_long)) return Below(static_cast<uint64_t>(spec.long_length)) + 1;
  return Below(8) + 1;
}

FeatureValues RandomExampleGenerator::RandomValues(const FeatureSpec& spec, size_t count) {
  FeatureValues values;
  values.kind = spec.kind;
  for (size_t i = 0; i < count; ++i) {
    switch (spec.kind) {
      case Kind::kInt64:
        values.ints.push_back(RandomInt64());
        break;
      case Kind::kFloat:
        values.float_bits.push_back(RandomFloatBits());
        break;
      case Kind::kBytes:
        values.bytes.push_back(RandomBytes(spec.utf8));
        break;
      case Kind::kNone:
        break;
    }
  }
  return values;
}

oracle::Example RandomExampleGenerator::NextExample(const std::vector<FeatureSpec>& specs) {
  oracle::Example example;
  auto* features = example.mutable_features()->mutable_feature();
  for (const FeatureSpec& spec : specs) {
    if (Chance(spec.p_missing)) continue;
    oracle::Feature& feature = (*features)[spec.name];
    if (Chance(spec.p_kindless)) continue;
    SetValues(RandomValues(spec, Chance(spec.p_empty) ? 0 : RandomLength(spec)), &feature);
  }
  return example;
}

oracle::SequenceExample RandomExampleGenerator::NextSequenceExample(const std::vector<FeatureSpec>& context,
                                                                    const std::vector<FeatureSpec>& lists) {
  oracle::SequenceExample example;
  *example.mutable_context() = NextExample(context).features();
  auto* feature_lists = example.mutable_feature_lists()->mutable_feature_list();
  for (const FeatureSpec& spec : lists) {
    if (Chance(spec.p_missing)) continue;
    oracle::FeatureList& list = (*feature_lists)[spec.name];
    const uint64_t steps = Below(7);
    for (uint64_t i = 0; i < steps; ++i) {
      SetValues(RandomValues(spec, Chance(spec.p_empty) ? 0 : RandomLength(spec)), list.add_feature());
    }
  }
  return example;
}

std::vector<FeatureSpec> VariedFeatureSpecs() {
  std::vector<FeatureSpec> specs;
  auto add = [&specs](std::string name, Kind kind, bool scalar, bool utf8 = false) -> FeatureSpec& {
    FeatureSpec spec;
    spec.name = std::move(name);
    spec.kind = kind;
    spec.scalar = scalar;
    spec.utf8 = utf8;
    spec.p_empty = scalar ? 0 : spec.p_empty;  // an empty list would make the column a list
    return specs.emplace_back(std::move(spec));
  };
  add("label", Kind::kInt64, true);
  add("ids", Kind::kInt64, false);
  add("score", Kind::kFloat, true);
  add("embedding", Kind::kFloat, false).p_long = 0.1;
  add("text", Kind::kBytes, true, true);
  add("tokens", Kind::kBytes, false, true).long_length = 500;
  add("blob", Kind::kBytes, false, false).long_length = 500;
  add("raw_scalar", Kind::kBytes, true, false);
  add("", Kind::kInt64, false);
  add(std::string("nul\0inside", 10), Kind::kFloat, false);
  add("caf\xC3\xA9 \xE5\x90\x8D \xF0\x9F\x90\xA7", Kind::kBytes, false, true).long_length = 500;
  add(std::string(300, 'n'), Kind::kInt64, true);
  add("one_or_none", Kind::kFloat, true).p_empty = 0.1;  // lengths 0 and 1: a list column
  FeatureSpec& always = add("always", Kind::kInt64, true);
  always.p_missing = always.p_kindless = always.p_empty = 0;
  FeatureSpec& empty = add("always_empty", Kind::kFloat, false);
  empty.p_empty = 1;
  FeatureSpec& kindless = add("never_kind", Kind::kBytes, false);
  kindless.p_kindless = 1;
  return specs;
}

}  // namespace recflow::interop
