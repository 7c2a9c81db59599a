// FeatureValues: one feature's values in a form both libprotobuf messages and recflow cells map to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "example.pb.h"
#include "recflow/columnar/array_data.h"

namespace recflow::interop {

/// The values of one tf.Example feature, or of one recflow cell seen as a feature. Floats are
/// kept as bit patterns so that NaN payloads, -0.0 and infinities compare exactly.
struct FeatureValues {
  /// Which list the feature holds; kNone is a Feature with no kind set.
  enum class Kind { kNone, kInt64, kFloat, kBytes };

  Kind kind = Kind::kNone;
  std::vector<int64_t> ints;
  std::vector<uint32_t> float_bits;
  std::vector<std::string> bytes;

  /// Number of values of the kind.
  size_t size() const;
  bool operator==(const FeatureValues& other) const = default;
  /// A short human-readable form for failure messages (long lists are elided).
  std::string ToString() const;
};

/// The values libprotobuf parsed into `feature`.
FeatureValues ValuesOf(const oracle::Feature& feature);

/// `values` as the decoder stores an Int64List in a float column (each value rounded to
/// float32); other kinds unchanged.
FeatureValues AsFloats(const FeatureValues& values);

/// Writes `values` into `feature` (replacing its kind and values).
void SetValues(const FeatureValues& values, oracle::Feature* feature);

/// The value of row `row` of a scalar or list<scalar> column as the encoder writes it (ints and
/// bools as int64, float32/float64 as float32, binary/utf8 as bytes); nullopt when null.
std::optional<FeatureValues> CellValues(const ArrayData& column, int64_t row);

/// The steps of row `row` of a list<list<scalar>> column (each nullopt when null); nullopt when
/// the row is null.
std::optional<std::vector<std::optional<FeatureValues>>> StepValues(const ArrayData& column, int64_t row);

}  // namespace recflow::interop
