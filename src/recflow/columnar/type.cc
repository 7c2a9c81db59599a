// DataType methods and the type factories.
#include "recflow/columnar/type.h"

#include <limits>

#include "recflow/columnar/schema.h"

namespace recflow {

DataType::DataType(TypeId id, std::vector<FieldPtr> fields, TypeParams params)
    : id_(id), fields_(std::move(fields)), params_(std::move(params)) {
  const bool one_child = id_ == TypeId::kList || id_ == TypeId::kLargeList || id_ == TypeId::kFixedSizeList ||
                         id_ == TypeId::kMap || id_ == TypeId::kListView || id_ == TypeId::kLargeListView;
  if (one_child && !fields_.empty()) value_type_ = fields_[0]->type();
  if (id_ == TypeId::kRunEndEncoded && fields_.size() == 2) value_type_ = fields_[1]->type();
  if (id_ == TypeId::kDictionary) value_type_ = params_.value_type;
}

DataType::~DataType() = default;

bool DataType::Equals(const DataType& other) const {
  if (this == &other) return true;
  if (id_ != other.id_ || fields_.size() != other.fields_.size()) return false;
  const TypeParams& p = params_;
  const TypeParams& q = other.params_;
  if (p.width != q.width || p.scale != q.scale || p.unit != q.unit || p.timezone != q.timezone ||
      p.interval != q.interval || p.union_mode != q.union_mode || p.type_codes != q.type_codes ||
      p.keys_sorted != q.keys_sorted || p.ordered != q.ordered) {
    return false;
  }
  if (id_ == TypeId::kDictionary &&
      (!p.index_type->Equals(*q.index_type) || !value_type_->Equals(*other.value_type_))) {
    return false;
  }
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!fields_[i]->Equals(*other.fields_[i])) return false;
  }
  return true;
}

std::string DataType::ToString() const {
  const auto item = [this] {
    const Field& f = *fields_[0];
    return f.type()->ToString() + (f.nullable() ? "" : " not null");
  };
  const auto members = [this] {
    std::string out;
    for (size_t i = 0; i < fields_.size(); ++i) {
      if (i > 0) out += ", ";
      out += fields_[i]->ToString();
      if (id_ == TypeId::kUnion) out.append("=").append(std::to_string(params_.type_codes[i]));
    }
    return out;
  };
  const std::string unit = TimeUnitName(params_.unit);
  switch (id_) {
    case TypeId::kList: return "list<" + item() + ">";
    case TypeId::kLargeList: return "large_list<" + item() + ">";
    case TypeId::kListView: return "list_view<" + item() + ">";
    case TypeId::kLargeListView: return "large_list_view<" + item() + ">";
    case TypeId::kRunEndEncoded:
      return "run_end_encoded<run_ends=" + fields_[0]->type()->ToString() + ", values=" + fields_[1]->type()->ToString() +
             ">";
    case TypeId::kFixedSizeList: return "fixed_size_list<" + item() + ">[" + std::to_string(params_.width) + "]";
    case TypeId::kStruct: return "struct<" + members() + ">";
    case TypeId::kUnion:
      return std::string(params_.union_mode == UnionMode::kSparse ? "sparse" : "dense") + "_union<" + members() + ">";
    case TypeId::kMap: {
      const auto& entries = fields_[0]->type()->fields();
      return std::string("map<") + entries[0]->type()->ToString() + ", " + entries[1]->type()->ToString() +
             (params_.keys_sorted ? ", keys_sorted" : "") + ">";
    }
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return std::string(TypeIdName(id_)) + "(" + std::to_string(params_.width) + ", " +
             std::to_string(params_.scale) + ")";
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kDuration: return std::string(TypeIdName(id_)) + "[" + unit + "]";
    case TypeId::kTimestamp:
      return "timestamp[" + unit + (params_.timezone.empty() ? "" : ", tz=" + params_.timezone) + "]";
    case TypeId::kInterval: {
      static constexpr const char* kNames[] = {"year_month", "day_time", "month_day_nano"};
      return std::string("interval[") + kNames[static_cast<int>(params_.interval)] + "]";
    }
    case TypeId::kFixedSizeBinary: return "fixed_size_binary[" + std::to_string(params_.width) + "]";
    case TypeId::kDictionary:
      return "dictionary<values=" + value_type_->ToString() + ", indices=" + params_.index_type->ToString() +
             (params_.ordered ? ", ordered" : "") + ">";
    default: return TypeIdName(id_);
  }
}

int DataType::bit_width() const {
  switch (id_) {
    case TypeId::kBool: return 1;
    case TypeId::kInt8: case TypeId::kUInt8: return 8;
    case TypeId::kInt16: case TypeId::kUInt16: return 16;
    case TypeId::kInt32: case TypeId::kUInt32: case TypeId::kFloat32: return 32;
    case TypeId::kInt64: case TypeId::kUInt64: case TypeId::kFloat64: return 64;
    case TypeId::kFloat16: return 16;
    case TypeId::kDecimal32: return 32;
    case TypeId::kDecimal64: return 64;
    case TypeId::kDecimal128: return 128;
    case TypeId::kDecimal256: return 256;
    case TypeId::kDate32: case TypeId::kTime32: return 32;
    case TypeId::kDate64: case TypeId::kTime64: case TypeId::kTimestamp: case TypeId::kDuration: return 64;
    case TypeId::kInterval: {
      static constexpr int kBits[] = {32, 64, 128};
      return kBits[static_cast<int>(params_.interval)];
    }
    case TypeId::kFixedSizeBinary:
      return params_.width > 0 && params_.width <= std::numeric_limits<int>::max() / 8 ? 8 * params_.width : 0;
    default: return 0;
  }
}

bool DataType::is_integer() const { return id_ >= TypeId::kInt8 && id_ <= TypeId::kUInt64; }
bool DataType::is_floating() const { return id_ == TypeId::kFloat32 || id_ == TypeId::kFloat64; }
bool DataType::is_binary_like() const { return id_ == TypeId::kBinary || id_ == TypeId::kUtf8; }
bool DataType::is_nested() const { return id_ == TypeId::kList || id_ == TypeId::kStruct; }
bool DataType::is_primitive() const {
  return id_ == TypeId::kBool || is_integer() || is_floating() || is_binary_like();
}

const char* TypeIdName(TypeId id) {
  switch (id) {
    case TypeId::kNull: return "null";
    case TypeId::kBool: return "bool";
    case TypeId::kInt8: return "int8";
    case TypeId::kInt16: return "int16";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kFloat32: return "float32";
    case TypeId::kFloat64: return "float64";
    case TypeId::kBinary: return "binary";
    case TypeId::kUtf8: return "utf8";
    case TypeId::kList: return "list";
    case TypeId::kStruct: return "struct";
    case TypeId::kFloat16: return "float16";
    case TypeId::kDecimal128: return "decimal128";
    case TypeId::kDecimal256: return "decimal256";
    case TypeId::kDate32: return "date32";
    case TypeId::kDate64: return "date64";
    case TypeId::kTime32: return "time32";
    case TypeId::kTime64: return "time64";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kDuration: return "duration";
    case TypeId::kInterval: return "interval";
    case TypeId::kLargeBinary: return "large_binary";
    case TypeId::kLargeUtf8: return "large_utf8";
    case TypeId::kFixedSizeBinary: return "fixed_size_binary";
    case TypeId::kLargeList: return "large_list";
    case TypeId::kFixedSizeList: return "fixed_size_list";
    case TypeId::kMap: return "map";
    case TypeId::kUnion: return "union";
    case TypeId::kDictionary: return "dictionary";
    case TypeId::kBinaryView: return "binary_view";
    case TypeId::kUtf8View: return "utf8_view";
    case TypeId::kListView: return "list_view";
    case TypeId::kLargeListView: return "large_list_view";
    case TypeId::kRunEndEncoded: return "run_end_encoded";
    case TypeId::kDecimal32: return "decimal32";
    case TypeId::kDecimal64: return "decimal64";
  }
  return "unknown";
}

const char* TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "s";
    case TimeUnit::kMilli: return "ms";
    case TimeUnit::kMicro: return "us";
    case TimeUnit::kNano: return "ns";
  }
  return "unknown";
}

namespace {

DataTypePtr Primitive(TypeId id) { return std::make_shared<const DataType>(id, std::vector<FieldPtr>{}); }

DataTypePtr WithParams(TypeId id, TypeParams params, std::vector<FieldPtr> fields = {}) {
  return std::make_shared<const DataType>(id, std::move(fields), std::move(params));
}

DataTypePtr WithUnit(TypeId id, TimeUnit unit) {
  TypeParams p;
  p.unit = unit;
  return WithParams(id, std::move(p));
}

}  // namespace

#define RECFLOW_PRIMITIVE_FACTORY(NAME, ID)         \
  DataTypePtr NAME() {                              \
    static const DataTypePtr kType = Primitive(ID); \
    return kType;                                   \
  }
RECFLOW_PRIMITIVE_FACTORY(null, TypeId::kNull)
RECFLOW_PRIMITIVE_FACTORY(boolean, TypeId::kBool)
RECFLOW_PRIMITIVE_FACTORY(int8, TypeId::kInt8)
RECFLOW_PRIMITIVE_FACTORY(int16, TypeId::kInt16)
RECFLOW_PRIMITIVE_FACTORY(int32, TypeId::kInt32)
RECFLOW_PRIMITIVE_FACTORY(int64, TypeId::kInt64)
RECFLOW_PRIMITIVE_FACTORY(uint8, TypeId::kUInt8)
RECFLOW_PRIMITIVE_FACTORY(uint16, TypeId::kUInt16)
RECFLOW_PRIMITIVE_FACTORY(uint32, TypeId::kUInt32)
RECFLOW_PRIMITIVE_FACTORY(uint64, TypeId::kUInt64)
RECFLOW_PRIMITIVE_FACTORY(float32, TypeId::kFloat32)
RECFLOW_PRIMITIVE_FACTORY(float64, TypeId::kFloat64)
RECFLOW_PRIMITIVE_FACTORY(binary, TypeId::kBinary)
RECFLOW_PRIMITIVE_FACTORY(utf8, TypeId::kUtf8)
RECFLOW_PRIMITIVE_FACTORY(float16, TypeId::kFloat16)
RECFLOW_PRIMITIVE_FACTORY(date32, TypeId::kDate32)
RECFLOW_PRIMITIVE_FACTORY(date64, TypeId::kDate64)
RECFLOW_PRIMITIVE_FACTORY(large_binary, TypeId::kLargeBinary)
RECFLOW_PRIMITIVE_FACTORY(large_utf8, TypeId::kLargeUtf8)
RECFLOW_PRIMITIVE_FACTORY(binary_view, TypeId::kBinaryView)
RECFLOW_PRIMITIVE_FACTORY(utf8_view, TypeId::kUtf8View)
#undef RECFLOW_PRIMITIVE_FACTORY

DataTypePtr list(DataTypePtr value_type) { return list(Field::Make("item", std::move(value_type), true)); }

DataTypePtr list(FieldPtr item) {
  return std::make_shared<const DataType>(TypeId::kList, std::vector<FieldPtr>{std::move(item)});
}

DataTypePtr struct_(std::vector<FieldPtr> fields) {
  return std::make_shared<const DataType>(TypeId::kStruct, std::move(fields));
}

DataTypePtr decimal(int32_t precision, int32_t scale, int bit_width) {
  TypeParams p;
  p.width = precision;
  p.scale = scale;
  const TypeId id = bit_width == 32    ? TypeId::kDecimal32
                    : bit_width == 64  ? TypeId::kDecimal64
                    : bit_width == 256 ? TypeId::kDecimal256
                                       : TypeId::kDecimal128;
  return WithParams(id, std::move(p));
}

DataTypePtr time32(TimeUnit unit) { return WithUnit(TypeId::kTime32, unit); }
DataTypePtr time64(TimeUnit unit) { return WithUnit(TypeId::kTime64, unit); }
DataTypePtr duration(TimeUnit unit) { return WithUnit(TypeId::kDuration, unit); }

DataTypePtr timestamp(TimeUnit unit, std::string timezone) {
  TypeParams p;
  p.unit = unit;
  p.timezone = std::move(timezone);
  return WithParams(TypeId::kTimestamp, std::move(p));
}

DataTypePtr interval(IntervalUnit unit) {
  TypeParams p;
  p.interval = unit;
  return WithParams(TypeId::kInterval, std::move(p));
}

DataTypePtr fixed_size_binary(int32_t byte_width) {
  TypeParams p;
  p.width = byte_width;
  return WithParams(TypeId::kFixedSizeBinary, std::move(p));
}

DataTypePtr large_list(FieldPtr item) { return WithParams(TypeId::kLargeList, TypeParams(), {std::move(item)}); }

DataTypePtr list_view(FieldPtr item) { return WithParams(TypeId::kListView, TypeParams(), {std::move(item)}); }

DataTypePtr large_list_view(FieldPtr item) {
  return WithParams(TypeId::kLargeListView, TypeParams(), {std::move(item)});
}

DataTypePtr run_end_encoded(DataTypePtr run_end_type, DataTypePtr value_type) {
  return WithParams(TypeId::kRunEndEncoded, TypeParams(),
                    {Field::Make("run_ends", std::move(run_end_type), false), Field::Make("values", std::move(value_type))});
}

DataTypePtr fixed_size_list(FieldPtr item, int32_t list_size) {
  TypeParams p;
  p.width = list_size;
  return WithParams(TypeId::kFixedSizeList, std::move(p), {std::move(item)});
}

DataTypePtr map(FieldPtr key, FieldPtr value, bool keys_sorted, std::string entries_name) {
  FieldPtr entries = Field::Make(std::move(entries_name), struct_({std::move(key), std::move(value)}), false);
  TypeParams p;
  p.keys_sorted = keys_sorted;
  return WithParams(TypeId::kMap, std::move(p), {std::move(entries)});
}

DataTypePtr union_(UnionMode mode, std::vector<FieldPtr> fields, std::vector<int8_t> type_codes) {
  TypeParams p;
  p.union_mode = mode;
  p.type_codes = std::move(type_codes);
  if (p.type_codes.empty()) {
    for (size_t i = 0; i < fields.size(); ++i) p.type_codes.push_back(static_cast<int8_t>(i));
  }
  return WithParams(TypeId::kUnion, std::move(p), std::move(fields));
}

DataTypePtr dictionary(DataTypePtr index_type, DataTypePtr value_type, bool ordered) {
  TypeParams p;
  p.index_type = std::move(index_type);
  p.value_type = std::move(value_type);
  p.ordered = ordered;
  return WithParams(TypeId::kDictionary, std::move(p));
}

DataTypePtr ScalarTypeFromName(std::string_view name) {
  if (name == "bool" || name == "boolean") return boolean();
  if (name == "int8") return int8();
  if (name == "int16") return int16();
  if (name == "int32") return int32();
  if (name == "int64") return int64();
  if (name == "uint8") return uint8();
  if (name == "uint16") return uint16();
  if (name == "uint32") return uint32();
  if (name == "uint64") return uint64();
  if (name == "float32" || name == "float") return float32();
  if (name == "float64" || name == "double") return float64();
  if (name == "utf8" || name == "string") return utf8();
  if (name == "binary" || name == "bytes") return binary();
  return nullptr;
}

}  // namespace recflow
