// DataType: the logical types of recflow columns (Arrow's physical layouts) and their factories.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
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
  // Arrow's other types (Arrow IPC, the C Data Interface); the formats above tf.Example use
  // only the ones listed first.
  kFloat16,          ///< IEEE half float, stored as uint16
  kDecimal128,       ///< 16-byte little-endian two's complement, with precision and scale
  kDecimal256,       ///< 32-byte little-endian two's complement, with precision and scale
  kDate32,           ///< int32 days since the UNIX epoch
  kDate64,           ///< int64 milliseconds since the UNIX epoch
  kTime32,           ///< int32 time of day in seconds or milliseconds
  kTime64,           ///< int64 time of day in micro- or nanoseconds
  kTimestamp,        ///< int64 since the UNIX epoch in a TimeUnit, with an optional time zone
  kDuration,         ///< int64 in a TimeUnit
  kInterval,         ///< an IntervalUnit: int32 months, {int32 days, int32 ms}, or {int32, int32, int64}
  kLargeBinary,      ///< binary with int64 offsets
  kLargeUtf8,        ///< utf8 with int64 offsets
  kFixedSizeBinary,  ///< byte_width() bytes per value
  kLargeList,        ///< list with int64 offsets
  kFixedSizeList,    ///< list_size() values per element
  kMap,              ///< list of struct<key, value> entries
  kUnion,            ///< sparse or dense union of child fields, with type codes
  kDictionary,       ///< indices (an integer type) into a dictionary of values
  kBinaryView,       ///< 16-byte views: short values inline, longer ones in variadic data buffers
  kUtf8View,         ///< utf8 as views
  kListView,         ///< list with an int32 offset and an int32 size per element
  kLargeListView,    ///< list view with int64 offsets and sizes
  kRunEndEncoded,    ///< runs: a run_ends child (int16/32/64) and a values child, no validity
  kDecimal32,        ///< 4-byte little-endian two's complement, with precision and scale
  kDecimal64,        ///< 8-byte little-endian two's complement, with precision and scale
};

/// Resolution of time, timestamp and duration values.
enum class TimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };
/// What an interval value holds.
enum class IntervalUnit : uint8_t { kYearMonth, kDayTime, kMonthDayNano };
/// Whether every child of a union holds a slot per element (sparse) or an offsets buffer
/// points into the child (dense).
enum class UnionMode : uint8_t { kSparse, kDense };

class DataType;
class Field;
class Schema;
/// Types, fields and schemas are immutable and shared.
using DataTypePtr = std::shared_ptr<const DataType>;
using FieldPtr = std::shared_ptr<const Field>;
using SchemaPtr = std::shared_ptr<const Schema>;

/// The parameters of parametric types; each type uses the members its factory documents.
struct TypeParams {
  int32_t width = 0;  ///< fixed_size_binary: bytes; fixed_size_list: values; decimal: precision
  int32_t scale = 0;  ///< decimal
  TimeUnit unit = TimeUnit::kSecond;  ///< time32/64, timestamp, duration
  std::string timezone;               ///< timestamp: empty = no time zone
  IntervalUnit interval = IntervalUnit::kYearMonth;
  UnionMode union_mode = UnionMode::kSparse;
  std::vector<int8_t> type_codes;  ///< union: the code of each child, in field order
  bool keys_sorted = false;        ///< map
  DataTypePtr index_type;          ///< dictionary: the integer type of the indices
  DataTypePtr value_type;          ///< dictionary: the type of the dictionary's values
  bool ordered = false;            ///< dictionary
};

/// A column type: a TypeId plus, for nested types, the child fields, and for parametric
/// types their TypeParams. Build instances with the factories below (int64(), list(...)).
class DataType {
 public:
  /// Use the factories; this constructor is public only for std::make_shared.
  DataType(TypeId id, std::vector<FieldPtr> fields, TypeParams params = {});
  ~DataType();

  /// The kind of type.
  TypeId id() const { return id_; }
  /// Children: the list kinds (views included) and map exactly one field ("item"; map:
  /// "entries", a non-nullable struct<key not null, value>), struct and union their members,
  /// run_end_encoded "run_ends" (not null) and "values", others none.
  const std::vector<FieldPtr>& fields() const { return fields_; }
  /// The element type of the list kinds (= fields()[0]->type()), map's entries struct, a
  /// dictionary's value type and a run_end_encoded's values type; nullptr for other types.
  const DataTypePtr& value_type() const { return value_type_; }
  /// The parameters (see TypeParams).
  const TypeParams& params() const { return params_; }
  /// Structural equality: ids, parameters, child field names, nullability and child types
  /// (not metadata).
  bool Equals(const DataType& other) const;
  /// "int64", "list<float32>", "struct<a: int64, b: utf8 not null>", "timestamp[us, tz=UTC]",
  /// "decimal128(10, 2)", "dictionary<values=utf8, indices=int32>", "list_view<int32>",
  /// "run_end_encoded<run_ends=int32, values=utf8>".
  std::string ToString() const;
  /// Bits per value of fixed-width types: bool 1, int8 8 ... float64 64, float16 16, decimals
  /// 32/64/128/256, dates, times, timestamps, durations and intervals by their storage,
  /// fixed_size_binary 8 × width; 0 for the others.
  int bit_width() const;
  /// int8..int64, uint8..uint64.
  bool is_integer() const;
  /// float32, float64.
  bool is_floating() const;
  /// binary, utf8 (int32 offsets).
  bool is_binary_like() const;
  /// list, struct (the nested types tf.Example, CSV and JSON Lines map).
  bool is_nested() const;
  /// bool, integers, float32/64, binary, utf8: the value types tf.Example, CSV and JSON Lines
  /// map (neither null nor nested, nor one of Arrow's other types).
  bool is_primitive() const;

 private:
  TypeId id_;
  std::vector<FieldPtr> fields_;
  DataTypePtr value_type_;
  TypeParams params_;
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

DataTypePtr float16();
/// decimal with `precision` digits, `scale` of them after the point; `bit_width` 32, 64, 128
/// or 256 (decimal32 ... decimal256).
DataTypePtr decimal(int32_t precision, int32_t scale, int bit_width = 128);
DataTypePtr date32();
/// The type a schema file or pipeline names with `name`: bool (boolean), int8..int64,
/// uint8..uint64, float32 (float), float64 (double), utf8 (string), binary (bytes); nullptr for
/// any other name.
DataTypePtr ScalarTypeFromName(std::string_view name);
DataTypePtr date64();
/// time of day in int32: `unit` kSecond or kMilli.
DataTypePtr time32(TimeUnit unit);
/// time of day in int64: `unit` kMicro or kNano.
DataTypePtr time64(TimeUnit unit);
/// timestamp in `unit`; `timezone` as Arrow writes it ("UTC", "+07:30", ""); empty = none.
DataTypePtr timestamp(TimeUnit unit, std::string timezone = "");
DataTypePtr duration(TimeUnit unit);
DataTypePtr interval(IntervalUnit unit);
DataTypePtr large_binary();
DataTypePtr large_utf8();
DataTypePtr fixed_size_binary(int32_t byte_width);
/// large_list with an explicit child field.
DataTypePtr large_list(FieldPtr item);
/// fixed_size_list of `list_size` values per element.
DataTypePtr fixed_size_list(FieldPtr item, int32_t list_size);
/// map whose `entries` field is a non-nullable struct of a non-nullable `key` field and a
/// `value` field (their names as given).
DataTypePtr map(FieldPtr key, FieldPtr value, bool keys_sorted = false, std::string entries_name = "entries");
/// union of `fields`; `type_codes` (one per field, 0..127) default to 0, 1, 2, ...
DataTypePtr union_(UnionMode mode, std::vector<FieldPtr> fields, std::vector<int8_t> type_codes = {});
/// dictionary-encoded values: `index_type` an integer type, `value_type` any type.
DataTypePtr dictionary(DataTypePtr index_type, DataTypePtr value_type, bool ordered = false);
/// binary values as 16-byte views (Arrow's BinaryView).
DataTypePtr binary_view();
/// utf8 values as 16-byte views (Arrow's Utf8View / StringView).
DataTypePtr utf8_view();
/// list_view with an explicit child field (int32 offsets and sizes).
DataTypePtr list_view(FieldPtr item);
/// large_list_view with an explicit child field (int64 offsets and sizes).
DataTypePtr large_list_view(FieldPtr item);
/// run_end_encoded: a non-nullable "run_ends" child of `run_end_type` (int16, int32 or int64)
/// and a nullable "values" child of `value_type`.
DataTypePtr run_end_encoded(DataTypePtr run_end_type, DataTypePtr value_type);

/// "s", "ms", "us", "ns".
const char* TimeUnitName(TimeUnit unit);

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
