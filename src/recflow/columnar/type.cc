// DataType methods and the type factories.
#include "recflow/columnar/type.h"

#include "recflow/columnar/schema.h"

namespace recflow {

DataType::DataType(TypeId id, std::vector<FieldPtr> fields) : id_(id), fields_(std::move(fields)) {
  if (id_ == TypeId::kList && !fields_.empty()) value_type_ = fields_[0]->type();
}

DataType::~DataType() = default;

bool DataType::Equals(const DataType& other) const {
  if (this == &other) return true;
  if (id_ != other.id_ || fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!fields_[i]->Equals(*other.fields_[i])) return false;
  }
  return true;
}

std::string DataType::ToString() const {
  if (id_ == TypeId::kList) {
    const Field& item = *fields_[0];
    return "list<" + item.type()->ToString() + (item.nullable() ? "" : " not null") + ">";
  }
  if (id_ == TypeId::kStruct) {
    std::string out = "struct<";
    for (size_t i = 0; i < fields_.size(); ++i) {
      if (i > 0) out += ", ";
      out += fields_[i]->ToString();
    }
    return out + ">";
  }
  return TypeIdName(id_);
}

int DataType::bit_width() const {
  switch (id_) {
    case TypeId::kBool: return 1;
    case TypeId::kInt8: case TypeId::kUInt8: return 8;
    case TypeId::kInt16: case TypeId::kUInt16: return 16;
    case TypeId::kInt32: case TypeId::kUInt32: case TypeId::kFloat32: return 32;
    case TypeId::kInt64: case TypeId::kUInt64: case TypeId::kFloat64: return 64;
    default: return 0;
  }
}

bool DataType::is_integer() const { return id_ >= TypeId::kInt8 && id_ <= TypeId::kUInt64; }
bool DataType::is_floating() const { return id_ == TypeId::kFloat32 || id_ == TypeId::kFloat64; }
bool DataType::is_binary_like() const { return id_ == TypeId::kBinary || id_ == TypeId::kUtf8; }
bool DataType::is_nested() const { return id_ == TypeId::kList || id_ == TypeId::kStruct; }
bool DataType::is_primitive() const { return id_ != TypeId::kNull && !is_nested(); }

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
  }
  return "unknown";
}

namespace {

DataTypePtr Primitive(TypeId id) { return std::make_shared<const DataType>(id, std::vector<FieldPtr>{}); }

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
#undef RECFLOW_PRIMITIVE_FACTORY

DataTypePtr list(DataTypePtr value_type) { return list(Field::Make("item", std::move(value_type), true)); }

DataTypePtr list(FieldPtr item) {
  return std::make_shared<const DataType>(TypeId::kList, std::vector<FieldPtr>{std::move(item)});
}

DataTypePtr struct_(std::vector<FieldPtr> fields) {
  return std::make_shared<const DataType>(TypeId::kStruct, std::move(fields));
}

}  // namespace recflow
