// The kernels behind Cast: numbers among each other, text parsing and text formatting.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/builder.h"
#include "recflow/core/result.h"
#include "recflow/ops/columns/column_util_internal.h"
#include "recflow/ops/row_errors.h"

namespace recflow::ops::internal {

/// Calls `f(T{})` with the C storage type of a number-like type (the numeric types, bool as
/// bool, date32 as int32_t, timestamp as int64_t) and returns true; false for other types.
template <typename F>
bool VisitStorageType(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kBool: f(bool{}); return true;
    case TypeId::kDate32: f(int32_t{}); return true;
    case TypeId::kTimestamp: f(int64_t{}); return true;
    default: return VisitNumericType(id, std::forward<F>(f));
  }
}

/// Converts `x` to To without wrapping: nullptr and *out set on success, else why not
/// ("out of range", "not an integer"). bool targets take x != 0.
template <typename To, typename From>
const char* ConvertNumber(From x, To* out) {
  if constexpr (std::is_same_v<From, bool>) {
    return ConvertNumber<To, uint8_t>(x ? 1 : 0, out);
  } else if constexpr (std::is_same_v<To, bool>) {
    *out = x != 0;
  } else if constexpr (std::is_integral_v<To>) {
    if constexpr (std::is_integral_v<From>) {
      if (!std::in_range<To>(x)) return "out of range";
    } else {
      if (!std::isfinite(x)) return "not a finite number";
      if (std::trunc(x) != x) return "not an integer";
      constexpr int kDigits = std::numeric_limits<To>::digits;
      const double high = std::ldexp(1.0, kDigits);
      const double low = std::is_signed_v<To> ? -high : 0.0;
      if (static_cast<double>(x) < low || static_cast<double>(x) >= high) return "out of range";
    }
    *out = static_cast<To>(x);
  } else {
    if constexpr (std::is_same_v<To, float> && std::is_same_v<From, double>) {
      if (std::isfinite(x) && std::fabs(x) > static_cast<double>(std::numeric_limits<float>::max())) {
        return "out of range";
      }
    }
    *out = static_cast<To>(x);
  }
  return nullptr;
}

/// Number-like (see VisitStorageType) → number-like.
Result<std::shared_ptr<ArrayData>> CastNumbers(const ArrayData& in, const DataTypePtr& to, RowErrors& errors);

/// utf8 / binary (and large) → number-like, utf8 or binary.
Result<std::shared_ptr<ArrayData>> ParseText(const ArrayData& in, const DataTypePtr& to, RowErrors& errors);

/// Number-like → utf8 or binary.
Result<std::shared_ptr<ArrayData>> FormatText(const ArrayData& in, const DataTypePtr& to, RowErrors& errors);

}  // namespace recflow::ops::internal
