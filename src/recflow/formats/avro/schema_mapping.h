// Mapping an Avro writer schema (JSON text) to a recflow Schema.
#pragma once

#include <string_view>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::avro {

/// Schema metadata key holding the Avro writer schema as JSON (the file's text, unchanged).
inline constexpr std::string_view kAvroSchemaKey = "avro.schema";
/// kLogicalTypeKey value of an int32 column holding days since 1970-01-01 (Avro `date`).
inline constexpr std::string_view kDate32LogicalType = "date32";
/// kLogicalTypeKey value prefix of a utf8 column holding Avro `decimal` values as
/// decimal text; the full value is "decimal(P, S)" with the schema's precision and scale.
inline constexpr std::string_view kDecimalLogicalTypePrefix = "decimal";

/// Maps an Avro schema given as JSON to the columns an AvroReader produces (see
/// docs/formats/avro.md): a record becomes one column per field. InvalidArgument when the JSON
/// is not an Avro schema; TypeError, naming the field, for types recflow cannot represent.
Result<SchemaPtr> SchemaFromAvroJson(std::string_view json);

}  // namespace recflow::avro
