// AvroNode: an Avro schema parsed from its JSON text (types, names, namespaces, logical types).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::avro {

/// The Avro types (Avro specification, "Schema Declaration").
enum class AvroType : uint8_t {
  kNull, kBoolean, kInt, kLong, kFloat, kDouble, kBytes, kString,
  kRecord, kEnum, kArray, kMap, kUnion, kFixed,
};

/// The logical types recflow maps to something other than the physical type.
enum class LogicalType : uint8_t {
  kNone,
  kDate,             ///< int: days since 1970-01-01
  kTimestampMillis,  ///< long: milliseconds since the epoch, UTC
  kTimestampMicros,  ///< long: microseconds since the epoch, UTC
  kDecimal,          ///< bytes or fixed: unscaled two's-complement big-endian integer
};

struct AvroNode;
/// Nodes are immutable once parsed; a named type referenced again is the same node.
using AvroNodePtr = std::shared_ptr<const AvroNode>;

/// A record field.
struct AvroField {
  std::string name;
  AvroNodePtr type;
};

/// One Avro type.
struct AvroNode {
  AvroType type = AvroType::kNull;
  /// Recognised logical type (invalid or unknown ones are ignored, as the specification says).
  LogicalType logical_type = LogicalType::kNone;
  /// Decimal precision and scale.
  int precision = 0;
  int scale = 0;
  /// Full name of a record, enum or fixed.
  std::string full_name;
  /// Record fields.
  std::vector<AvroField> fields;
  /// Enum symbols.
  std::vector<std::string> symbols;
  /// Fixed size in bytes.
  int64_t fixed_size = 0;
  /// Array items or map values.
  AvroNodePtr items;
  /// Union branches.
  std::vector<AvroNodePtr> branches;
};

/// Parses a schema's JSON text. DataError when the text is not JSON or not an Avro schema
/// (unknown type or name, duplicate name, missing attribute, nesting deeper than
/// kMaxSchemaDepth); TypeError for a recursive type (a named type used inside itself).
Result<AvroNodePtr> ParseAvroSchema(std::string_view json);

}  // namespace recflow::avro
