// FeatureValues: conversions from libprotobuf Features and from recflow column cells.
#include "feature_values.h"

#include <cstring>
#include <memory>
#include <sstream>

#include "recflow/columnar/array.h"

namespace recflow::interop {
namespace {

constexpr size_t kShownValues = 8;

uint32_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

FeatureValues::Kind KindOfType(TypeId id) {
  switch (id) {
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return FeatureValues::Kind::kFloat;
    case TypeId::kBinary:
    case TypeId::kUtf8:
      return FeatureValues::Kind::kBytes;
    default:
      return FeatureValues::Kind::kInt64;
  }
}

template <typename T>
void AppendNumber(const std::shared_ptr<ArrayData>& data, int64_t i, FeatureValues* out) {
  T value = NumericArray<T>(data).Value(i);
  if constexpr (std::is_floating_point_v<T>) {
    out->float_bits.push_back(FloatBits(static_cast<float>(value)));
  } else {
    out->ints.push_back(static_cast<int64_t>(value));
  }
}

// Appends elements [begin, end) of a scalar column to `out`.
void AppendElements(const std::shared_ptr<ArrayData>& data, int64_t begin, int64_t end, FeatureValues* out) {
  for (int64_t i = begin; i < end; ++i) {
    switch (data->type->id()) {
      case TypeId::kBool:
        out->ints.push_back(BooleanArray(data).Value(i) ? 1 : 0);
        break;
      case TypeId::kInt8:
        AppendNumber<int8_t>(data, i, out);
        break;
      case TypeId::kInt16:
        AppendNumber<int16_t>(data, i, out);
        break;
      case TypeId::kInt32:
        AppendNumber<int32_t>(data, i, out);
        break;
      case TypeId::kInt64:
        AppendNumber<int64_t>(data, i, out);
        break;
      case TypeId::kUInt8:
        AppendNumber<uint8_t>(data, i, out);
        break;
      case TypeId::kUInt16:
        AppendNumber<uint16_t>(data, i, out);
        break;
      case TypeId::kUInt32:
        AppendNumber<uint32_t>(data, i, out);
        break;
      case TypeId::kUInt64:
        AppendNumber<uint64_t>(data, i, out);
        break;
      case TypeId::kFloat32:
        AppendNumber<float>(data, i, out);
        break;
      case TypeId::kFloat64:
        AppendNumber<double>(data, i, out);
        break;
      case TypeId::kBinary:
      case TypeId::kUtf8:
        out->bytes.emplace_back(BinaryArray(data).GetView(i));
        break;
      default:
        break;
    }
  }
}

// The cell of a scalar or list<scalar> column; `column` is not null at `row`.
FeatureValues ValidCell(const std::shared_ptr<ArrayData>& column, int64_t row) {
  FeatureValues out;
  if (column->type->id() == TypeId::kList) {
    ListArray list(column);
    const std::shared_ptr<ArrayData> values = list.values();
    out.kind = KindOfType(values->type->id());
    AppendElements(values, list.value_offset(row), list.value_offset(row) + list.value_length(row), &out);
  } else {
    out.kind = KindOfType(column->type->id());
    AppendElements(column, row, row + 1, &out);
  }
  return out;
}

}  // namespace

size_t FeatureValues::size() const {
  switch (kind) {
    case Kind::kInt64:
      return ints.size();
    case Kind::kFloat:
      return float_bits.size();
    case Kind::kBytes:
      return bytes.size();
    case Kind::kNone:
      break;
  }
  return 0;
}

std::string FeatureValues::ToString() const {
  std::ostringstream out;
  static constexpr const char* kNames[] = {"no kind", "int64", "float", "bytes"};
  out << kNames[static_cast<int>(kind)] << "[" << size() << "]{";
  for (size_t i = 0; i < size() && i < kShownValues; ++i) {
    if (i > 0) out << ", ";
    if (kind == Kind::kInt64) {
      out << ints[i];
    } else if (kind == Kind::kFloat) {
      float value;
      std::memcpy(&value, &float_bits[i], sizeof(value));
      out << value << "(0x" << std::hex << float_bits[i] << std::dec << ")";
    } else {
      out << '"';
      for (size_t j = 0; j < bytes[i].size() && j < 32; ++j) {
        const auto c = static_cast<unsigned char>(bytes[i][j]);
        if (c >= 0x20 && c < 0x7F) {
          out << c;
        } else {
          out << "\\x" << std::hex << static_cast<int>(c) << std::dec;
        }
      }
      out << (bytes[i].size() > 32 ? "...\"" : "\"") << "(" << bytes[i].size() << " bytes)";
    }
  }
  out << (size() > kShownValues ? ", ...}" : "}");
  return out.str();
}

FeatureValues ValuesOf(const oracle::Feature& feature) {
  FeatureValues out;
  switch (feature.kind_case()) {
    case oracle::Feature::kInt64List:
      out.kind = FeatureValues::Kind::kInt64;
      out.ints.assign(feature.int64_list().value().begin(), feature.int64_list().value().end());
      break;
    case oracle::Feature::kFloatList:
      out.kind = FeatureValues::Kind::kFloat;
      for (float v : feature.float_list().value()) out.float_bits.push_back(FloatBits(v));
      break;
    case oracle::Feature::kBytesList:
      out.kind = FeatureValues::Kind::kBytes;
      out.bytes.assign(feature.bytes_list().value().begin(), feature.bytes_list().value().end());
      break;
    case oracle::Feature::KIND_NOT_SET:
      break;
  }
  return out;
}

FeatureValues AsFloats(const FeatureValues& values) {
  if (values.kind != FeatureValues::Kind::kInt64) return values;
  FeatureValues out;
  out.kind = FeatureValues::Kind::kFloat;
  for (int64_t v : values.ints) out.float_bits.push_back(FloatBits(static_cast<float>(v)));
  return out;
}

void SetValues(const FeatureValues& values, oracle::Feature* feature) {
  feature->Clear();
  switch (values.kind) {
    case FeatureValues::Kind::kInt64: {
      auto* list = feature->mutable_int64_list();
      for (int64_t v : values.ints) list->add_value(v);
      break;
    }
    case FeatureValues::Kind::kFloat: {
      auto* list = feature->mutable_float_list();
      for (uint32_t bits : values.float_bits) {
        float v;
        std::memcpy(&v, &bits, sizeof(v));
        list->add_value(v);
      }
      break;
    }
    case FeatureValues::Kind::kBytes: {
      auto* list = feature->mutable_bytes_list();
      for (const std::string& v : values.bytes) list->add_value(v);
      break;
    }
    case FeatureValues::Kind::kNone:
      break;
  }
}

std::optional<FeatureValues> CellValues(const ArrayData& column, int64_t row) {
  auto data = std::make_shared<ArrayData>(column);
  if (column.type->id() == TypeId::kNull || Array(data).IsNull(row)) return std::nullopt;
  return ValidCell(data, row);
}

std::optional<std::vector<std::optional<FeatureValues>>> StepValues(const ArrayData& column, int64_t row) {
  auto data = std::make_shared<ArrayData>(column);
  if (column.type->id() != TypeId::kList || Array(data).IsNull(row)) return std::nullopt;
  ListArray outer(data);
  std::vector<std::optional<FeatureValues>> steps;
  const std::shared_ptr<ArrayData> inner = outer.values();
  for (int32_t i = outer.value_offset(row); i < outer.value_offset(row) + outer.value_length(row); ++i) {
    steps.push_back(CellValues(*inner, i));
  }
  return steps;
}

}  // namespace recflow::interop
