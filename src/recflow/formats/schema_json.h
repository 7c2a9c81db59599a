// Schema files: the JSON a user passes with --schema to fix column names, types and nullability.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"

namespace recflow {

/// Parses a schema document:
///   {"fields": [{"name": "a", "type": "int64", "nullable": true}, ...]}
/// (a bare array of fields is accepted too). Types: bool, int8, int16, int32, int64, uint8,
/// uint16, uint32, uint64, float32, float64, utf8 (alias string), binary (alias bytes),
/// timestamp (int64 microseconds since the epoch, UTC, tagged with kTimestampLogicalType) and
/// list<T> of those. `nullable` defaults to true. DataError naming `name` and the field for
/// anything else (unknown keys, duplicate names, empty names).
Result<SchemaPtr> ParseSchemaJson(std::string_view json, const std::string& name);

/// Reads and parses schema file `path` of `fs`.
Result<SchemaPtr> ReadSchemaFile(const std::string& path, FileSystem& fs);

/// Parses schema hints `NAME:TYPE` (`trip_seconds:float32`; the type is one of the schema
/// file's type names, split at the last `:`) into a schema of the hinted columns, nullable.
/// InvalidArgument for a hint without a name or type, an unknown type or a column hinted twice.
Result<SchemaPtr> ParseSchemaHints(const std::vector<std::string>& hints);

/// `inferred` with the type of every column `hints` names replaced by the hinted one (and its
/// logical-type metadata), other columns and every column's nullability kept, as DuckDB's
/// `types` and Spark's schema hints override single columns. InvalidArgument naming `input`
/// when a hint names no column of `inferred`. `hints` may be null (no hints).
Result<SchemaPtr> ApplySchemaHints(const SchemaPtr& inferred, const SchemaPtr& hints, const std::string& input);

}  // namespace recflow
