// RowValue: reading one element of a column as a scalar, converting a scalar for a column and appending it.
#include "recflow/pipeline/row_value.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/element_access.h"

namespace recflow::pipeline {

namespace {

Status CannotTake(const DataType& type, const RowValue& value) {
  return Status::TypeError("a " + type.ToString() + " column cannot take " + ops::ScalarToString(value));
}

// `value` as a T of column type `type`: integers range-checked, floats only when integral.
template <typename T>
Result<T> ToNumber(const DataType& type, const RowValue& value) {
  if (const auto* b = std::get_if<bool>(&value)) return static_cast<T>(*b ? 1 : 0);
  if constexpr (std::is_floating_point_v<T>) {
    if (const auto* v = std::get_if<int64_t>(&value)) return static_cast<T>(*v);
    if (const auto* v = std::get_if<double>(&value)) return static_cast<T>(*v);
    return CannotTake(type, value);
  } else {
    int64_t whole = 0;
    if (const auto* v = std::get_if<int64_t>(&value)) {
      whole = *v;
    } else if (const auto* d = std::get_if<double>(&value)) {
      if (!(std::trunc(*d) == *d && *d >= -9.2233720368547758e18 && *d < 9.2233720368547758e18)) {
        return Status::TypeError("value " + ops::ScalarToString(value) + " is not an integer of " + type.ToString());
      }
      whole = static_cast<int64_t>(*d);
    } else {
      return CannotTake(type, value);
    }
    const bool fits = std::is_signed_v<T> ? whole >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
                                                whole <= static_cast<int64_t>(std::numeric_limits<T>::max())
                                          : whole >= 0 && static_cast<uint64_t>(whole) <= std::numeric_limits<T>::max();
    if (!fits) return Status::TypeError("value " + std::to_string(whole) + " is out of range of " + type.ToString());
    return static_cast<T>(whole);
  }
}

}  // namespace

Result<RowValue> ReadRowValue(const ArrayData& data, int64_t i) {
  if (!IsValidAt(data, i)) return RowValue{};
  if (HoldsBytes(*data.type)) return RowValue{std::string(BinaryValue(data, i))};
  switch (data.type->id()) {
    case TypeId::kBool: return RowValue{bit_util::GetBit(data.buffers[1]->data(), data.offset + i)};
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32:
      return RowValue{IntegerValue(data, i)};
    case TypeId::kUInt64: {
      const uint64_t v = data.GetValues<uint64_t>(1)[i];
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Status::TypeError("uint64 value " + std::to_string(v) + " does not fit an int64");
      }
      return RowValue{static_cast<int64_t>(v)};
    }
    case TypeId::kFloat32: return RowValue{static_cast<double>(data.GetValues<float>(1)[i])};
    case TypeId::kFloat64: return RowValue{data.GetValues<double>(1)[i]};
    default:
      return Status::TypeError("a " + data.type->ToString() + " value is not a scalar a row function can read");
  }
}

bool HoldsBytes(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBinary: case TypeId::kUtf8: case TypeId::kLargeBinary: case TypeId::kLargeUtf8:
    case TypeId::kFixedSizeBinary:
      return true;
    default:
      return false;
  }
}

Status CheckRowValueType(const DataType& type) {
  if (!type.is_primitive()) return Status::TypeError("row functions cannot build " + type.ToString() + " columns");
  return Status::OK();
}

Result<ConvertedValue> ConvertRowValue(const DataType& type, const RowValue& value) {
  RETURN_NOT_OK(CheckRowValueType(type));
  if (std::holds_alternative<std::monostate>(value)) return ConvertedValue{};
  auto number = [&]<typename T>(T*) -> Result<ConvertedValue> {
    ASSIGN_OR_RETURN(T v, ToNumber<T>(type, value));
    return ConvertedValue(std::in_place_type<T>, v);
  };
  switch (type.id()) {
    case TypeId::kBool:
      if (const auto* b = std::get_if<bool>(&value)) return ConvertedValue{*b};
      return CannotTake(type, value);
    case TypeId::kInt8: return number(static_cast<int8_t*>(nullptr));
    case TypeId::kInt16: return number(static_cast<int16_t*>(nullptr));
    case TypeId::kInt32: return number(static_cast<int32_t*>(nullptr));
    case TypeId::kInt64: return number(static_cast<int64_t*>(nullptr));
    case TypeId::kUInt8: return number(static_cast<uint8_t*>(nullptr));
    case TypeId::kUInt16: return number(static_cast<uint16_t*>(nullptr));
    case TypeId::kUInt32: return number(static_cast<uint32_t*>(nullptr));
    case TypeId::kUInt64: return number(static_cast<uint64_t*>(nullptr));
    case TypeId::kFloat32: return number(static_cast<float*>(nullptr));
    case TypeId::kFloat64: return number(static_cast<double*>(nullptr));
    case TypeId::kBinary: case TypeId::kUtf8:
      if (const auto* s = std::get_if<std::string>(&value)) return ConvertedValue{std::string_view(*s)};
      return CannotTake(type, value);
    default:
      return Status::Internal("unchecked row value type " + type.ToString());
  }
}

Status AppendConverted(ArrayBuilder* builder, const ConvertedValue& value) {
  return std::visit(
      [builder]<typename V>(const V& v) -> Status {
        if constexpr (std::is_same_v<V, std::monostate>) {
          return builder->AppendNull();
        } else if constexpr (std::is_same_v<V, bool>) {
          return static_cast<BooleanBuilder*>(builder)->Append(v);
        } else if constexpr (std::is_same_v<V, std::string_view>) {
          return static_cast<BinaryBuilder*>(builder)->Append(v);
        } else {
          return static_cast<NumericBuilder<V>*>(builder)->Append(v);
        }
      },
      value);
}

}  // namespace recflow::pipeline
