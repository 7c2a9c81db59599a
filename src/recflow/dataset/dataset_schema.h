// The schema file a recflow dataset carries (`_recflow_schema.json`): every column and its type, partition columns included.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"

namespace recflow::dataset {

/// The name of the schema file at the top of a dataset (its `_` hides it from Spark, TF and
/// recflow readers of data files).
inline constexpr std::string_view kSchemaFileName = "_recflow_schema.json";

/// One column as the schema file records it.
struct RecordedField {
  std::string name;     ///< as RecordedName() gives it
  std::string type;     ///< DataType::ToString() of the column's type
  bool nullable = true;
  /// Same name, type and nullability.
  bool operator==(const RecordedField&) const = default;
};

/// A column name as it reads back from the schema file: the name itself when it is valid
/// UTF-8, else every byte of 0x80 and above read as Latin-1 (as JSON output writes it).
std::string RecordedName(std::string_view name);

/// What the schema file of a dataset says (see "The schema file" in docs/formats/datasets.md).
struct DatasetSchema {
  /// Every column of the rows written, in their order, partition columns included.
  std::vector<RecordedField> fields;
  /// The partition columns, outermost directory first.
  std::vector<std::string> partition_by;

  /// The schema of rows of `schema` written with partition columns `partition_by` (columns of
  /// `schema`). A dictionary-encoded partition column is recorded as its value type: the
  /// directories hold values, and readers give them back as such.
  static DatasetSchema Of(const Schema& schema, const std::vector<std::string>& partition_by);
  /// Parses the text of a schema file; DataError naming `path` (and the field) when it is not
  /// a schema file of version 1: unknown keys, a missing or mistyped member, a duplicate
  /// column, a partition column that is not a column.
  static Result<DatasetSchema> FromJson(std::string_view json, const std::string& path);
  /// The text of the schema file (one JSON object and a newline).
  std::string ToJson() const;
  /// The partition columns as fields, outermost first. DataError naming `path` when a
  /// partition column's type is not one a directory holds (bool, integers, float32, float64,
  /// utf8).
  Result<SchemaPtr> PartitionSchema(const std::string& path) const;
  /// The schema after writing rows of `job` into the dataset this schema describes (append,
  /// overwrite-partitions): the same columns in the same order with the same types and the
  /// same partition columns are required, and a column is nullable when it is in either.
  /// DataError naming `output` and the first difference otherwise.
  Result<DatasetSchema> Merge(const DatasetSchema& job, const std::string& output) const;
};

/// The schema file of dataset directory `dir` on `fs`, std::nullopt when it has none. DataError naming
/// the file when it is malformed or larger than 16 MiB; IOError when it cannot be read.
Result<std::optional<DatasetSchema>> ReadDatasetSchema(FileSystem& fs, const std::string& dir);

}  // namespace recflow::dataset
