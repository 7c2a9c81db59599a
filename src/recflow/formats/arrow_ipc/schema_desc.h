// SchemaDesc: a recflow-native description of an Arrow schema (types, fields, dictionaries, metadata), free of flatbuffers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/message.h"

namespace recflow::arrow_ipc {

/// Every Arrow logical type of Schema.fbs.
enum class TypeId : uint8_t {
  kNull,
  kBool,
  kInt,
  kFloatingPoint,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kDuration,
  kInterval,
  kBinary,
  kUtf8,
  kLargeBinary,
  kLargeUtf8,
  kFixedSizeBinary,
  kList,
  kLargeList,
  kFixedSizeList,
  kStruct,
  kMap,
  kUnion,
  kRunEndEncoded,
  kBinaryView,
  kUtf8View,
  kListView,
  kLargeListView,
};

/// Width of a floating point type.
enum class FloatPrecision : uint8_t { kHalf, kSingle, kDouble };
/// Unit of a date.
enum class DateUnit : uint8_t { kDay, kMillisecond };
/// Unit of a time, timestamp or duration.
enum class TimeUnit : uint8_t { kSecond, kMillisecond, kMicrosecond, kNanosecond };
/// Unit of an interval.
enum class IntervalUnit : uint8_t { kYearMonth, kDayTime, kMonthDayNano };
/// Layout of a union.
enum class UnionMode : uint8_t { kSparse, kDense };
/// Byte order of the values in the bodies.
enum class Endianness : uint8_t { kLittle, kBig };

/// Ordered user metadata (key, value) pairs, as written.
using KeyValueMetadata = std::vector<std::pair<std::string, std::string>>;

/// An Arrow type and its parameters. Only the parameters of `id` are meaningful; the others
/// keep their defaults, so two equal types compare equal.
struct TypeDesc {
  TypeId id = TypeId::kNull;
  /// kInt: 8, 16, 32 or 64; kDecimal: 32, 64, 128 or 256; kTime: 32 or 64.
  int32_t bit_width = 0;
  /// kInt.
  bool is_signed = false;
  /// kFloatingPoint.
  FloatPrecision precision = FloatPrecision::kHalf;
  /// kDecimal: total digits.
  int32_t decimal_precision = 0;
  /// kDecimal: digits after the point.
  int32_t decimal_scale = 0;
  /// kDate.
  DateUnit date_unit = DateUnit::kDay;
  /// kTime, kTimestamp, kDuration.
  TimeUnit time_unit = TimeUnit::kSecond;
  /// kTimestamp: an Olson name or "+HH:MM"; empty for a time-zone-naive timestamp.
  std::string timezone;
  /// kInterval.
  IntervalUnit interval_unit = IntervalUnit::kYearMonth;
  /// kFixedSizeBinary: bytes per value.
  int32_t byte_width = 0;
  /// kFixedSizeList: items per value.
  int32_t list_size = 0;
  /// kMap.
  bool keys_sorted = false;
  /// kUnion: the layout.
  UnionMode union_mode = UnionMode::kSparse;
  /// kUnion: the type id of each child (0, 1, ... when the writer gave none).
  std::vector<int32_t> union_type_ids;

  bool operator==(const TypeDesc&) const = default;
};

/// Dictionary encoding of a field: the batches hold indices into the dictionary `id`.
struct DictionaryDesc {
  /// The id of the DictionaryBatch messages holding the values.
  int64_t id = 0;
  /// An integer type (signed 32-bit when the writer gave none).
  TypeDesc index_type;
  /// Whether the order of the values is meaningful.
  bool ordered = false;

  bool operator==(const DictionaryDesc&) const = default;
};

/// A column or a child of a nested type. For a dictionary-encoded field `type` is the type of
/// the dictionary values and `children` are theirs.
struct FieldDesc {
  /// May be empty (list items often have no name).
  std::string name;
  bool nullable = true;
  TypeDesc type;
  /// Children of nested types, in order.
  std::vector<FieldDesc> children;
  /// Set when the field is dictionary-encoded.
  std::optional<DictionaryDesc> dictionary;
  /// User metadata (extension types keep ARROW:extension:name / :metadata here).
  KeyValueMetadata metadata;

  bool operator==(const FieldDesc&) const = default;
};

/// A schema: its top-level fields, user metadata, byte order and announced features.
struct SchemaDesc {
  /// The top-level columns.
  std::vector<FieldDesc> fields;
  /// User metadata of the schema.
  KeyValueMetadata metadata;
  /// Byte order of the bodies (the decoder swaps big-endian values to little-endian).
  Endianness endianness = Endianness::kLittle;
  /// The Feature bits the writer announced (Feature enum values, unknown ones kept).
  std::vector<int64_t> features;

  bool operator==(const SchemaDesc&) const = default;
};

/// A short name of a type id: "int", "utf8", "fixed_size_list", ...
std::string_view TypeIdName(TypeId id);

/// A readable rendering of a type with its parameters ("int32", "timestamp[ms, UTC]", ...).
std::string TypeToString(const TypeDesc& type);

/// Converts the Schema header of `message` (type kSchema). Unknown enum values, impossible
/// parameters (an int of 12 bits, a time of unit second and 64 bits), wrong child counts
/// (a list with two children) and nesting deeper than kMaxFieldDepth are DataErrors naming
/// the message's input and offset.
Result<SchemaDesc> ReadSchema(const Message& message);

}  // namespace recflow::arrow_ipc
