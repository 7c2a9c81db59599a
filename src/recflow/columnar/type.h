// DataType: the logical types of recflow columns (Arrow's physical layouts) and their factories.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace recflow {

/// The type of a column. Each has a fixed Arrow layout (see array_data.h).
enum class TypeId : uint8_t {
  kNull,
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat32,
  kFloat64,
  kBinary,
  kUtf8,
  kList,
  kStruct,
};

class DataType;
class Field;
class Schema;
/// Types, fields and schemas are immutable and shared.
using DataTypePtr = std::shared_ptr<const DataType>;
using FieldPtr = std::shared_ptr<const Field>;
using SchemaPtr = std::shared_ptr<const Schema>;

/// A column type: a TypeId plus, for nested types, the child fields.
/// Build instances with the factories below (int64(), list(...), struct_(...)).
class DataType {
 public:
  /// Use the factories; this constructor is public only for std::make_shared.
  DataType(TypeId id, std::vector<FieldPtr> fields);
  ~DataType();

  /// The kind of type.
  TypeId id() const { return id_; }
  /// Children: list has exactly one field ("item"), struct its members, others none.
  const std::vector<FieldPtr>& fields() const { return fields_; }
  /// list only: the element type (= fields()[0]->type()); nullptr for other types.
  const DataTypePtr& value_type() const { return value_type_; }
  /// Structural equality: ids, child field names, nullability and child types (not metadata).
  bool Equals(const DataType& other) const;
  /// "int64", "list<float32>", "struct<a: int64, b: utf8 not null>".
  std::string ToString() const;
  /// Bits per value of fixed-width types: bool 1, int8 8 ... float64 64; 0 for the others.
  int bit_width() const;
  /// int8..int64, uint8..uint64.
  bool is_integer() const;
  /// float32, float64.
  bool is_floating() const;
  /// binary, utf8.
  bool is_binary_like() const;
  /// list, struct.
  bool is_nested() const;
  /// One value per slot: bool, integers, floats, binary, utf8 (neither null nor nested).
  bool is_primitive() const;

 private:
  TypeId id_;
  std::vector<FieldPtr> fields_;
  DataTypePtr value_type_;
};

/// The short lowercase name of a type id ("int64", "utf8", "list", ...).
const char* TypeIdName(TypeId id);

/// The singleton instances of the primitive types.
DataTypePtr null();
DataTypePtr boolean();
DataTypePtr int8();
DataTypePtr int16();
DataTypePtr int32();
DataTypePtr int64();
DataTypePtr uint8();
DataTypePtr uint16();
DataTypePtr uint32();
DataTypePtr uint64();
DataTypePtr float32();
DataTypePtr float64();
DataTypePtr binary();
DataTypePtr utf8();
/// list<value_type>; the child field is named "item" and is nullable.
DataTypePtr list(DataTypePtr value_type);
/// list with an explicit child field (name, nullability, metadata).
DataTypePtr list(FieldPtr item);
/// struct with the given members (names may repeat, as in Arrow).
DataTypePtr struct_(std::vector<FieldPtr> fields);

/// Maps a C++ value type to its column type: CTypeTraits<int64_t>::kTypeId == TypeId::kInt64.
template <typename T>
struct CTypeTraits;
template <>
struct CTypeTraits<int8_t> {
  static constexpr TypeId kTypeId = TypeId::kInt8;
  static DataTypePtr type() { return int8(); }
};
template <>
struct CTypeTraits<int16_t> {
  static constexpr TypeId kTypeId = TypeId::kInt16;
  static DataTypePtr type() { return int16(); }
};
template <>
struct CTypeTraits<int32_t> {
  static constexpr TypeId kTypeId = TypeId::kInt32;
  static DataTypePtr type() { return int32(); }
};
template <>
struct CTypeTraits<int64_t> {
  static constexpr TypeId kTypeId = TypeId::kInt64;
  static DataTypePtr type() { return int64(); }
};
template <>
struct CTypeTraits<uint8_t> {
  static constexpr TypeId kTypeId = TypeId::kUInt8;
  static DataTypePtr type() { return uint8(); }
};
template <>
struct CTypeTraits<uint16_t> {
  static constexpr TypeId kTypeId = TypeId::kUInt16;
  static DataTypePtr type() { return uint16(); }
};
template <>
struct CTypeTraits<uint32_t> {
  static constexpr TypeId kTypeId = TypeId::kUInt32;
  static DataTypePtr type() { return uint32(); }
};
template <>
struct CTypeTraits<uint64_t> {
  static constexpr TypeId kTypeId = TypeId::kUInt64;
  static DataTypePtr type() { return uint64(); }
};
template <>
struct CTypeTraits<float> {
  static constexpr TypeId kTypeId = TypeId::kFloat32;
  static DataTypePtr type() { return float32(); }
};
template <>
struct CTypeTraits<double> {
  static constexpr TypeId kTypeId = TypeId::kFloat64;
  static DataTypePtr type() { return float64(); }
};

}  // namespace recflow
