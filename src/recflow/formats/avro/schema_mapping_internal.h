// Mapping parsed Avro types to recflow fields: nullable unions, logical types, nested types.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/avro/avro_schema_internal.h"

namespace recflow::avro {

/// An Avro type with a union of null and one type taken apart.
struct UnwrappedNode {
  /// The value type; for a union of only null, that null branch.
  const AvroNode* value = nullptr;
  /// True for a union holding a null branch.
  bool nullable = false;
  /// For a union: its branch count and the branch index of `value`; otherwise 0 and -1.
  int64_t num_branches = 0;
  int64_t value_branch = -1;
};

/// Unwraps `node`; TypeError naming `path` for unions other than null plus at most one type.
Result<UnwrappedNode> Unwrap(const AvroNode& node, const std::string& path);

/// Maps the Avro type at field path `path` to a recflow field named `leaf`.
Result<FieldPtr> FieldFromAvro(const std::string& leaf, const std::string& path, const AvroNode& node);

/// Maps a record writer schema to a recflow Schema, one column per field, with `json` under
/// kAvroSchemaKey. TypeError when the top level is not a record.
Result<SchemaPtr> SchemaFromAvro(const AvroNode& node, std::string_view json);

}  // namespace recflow::avro
