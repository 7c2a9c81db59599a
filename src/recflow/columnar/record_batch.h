// RecordBatch: a schema plus equal-length columns, the unit data moves in between layers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow {

/// An immutable batch of rows stored as columns.
class RecordBatch {
 public:
  /// Checks that there is one column per field, each of the field's type and `num_rows` long.
  static Result<std::shared_ptr<RecordBatch>> Make(SchemaPtr schema, int64_t num_rows,
                                                   std::vector<std::shared_ptr<ArrayData>> columns);
  /// Use Make(); public only for std::make_shared.
  RecordBatch(SchemaPtr schema, int64_t num_rows, std::vector<std::shared_ptr<ArrayData>> columns);

  /// The column names and types.
  const SchemaPtr& schema() const { return schema_; }
  /// Number of rows (the length of every column).
  int64_t num_rows() const { return num_rows_; }
  /// Number of columns (= schema()->num_fields()).
  int num_columns() const { return static_cast<int>(columns_.size()); }
  /// Column i, 0 <= i < num_columns().
  const std::shared_ptr<ArrayData>& column_data(int i) const { return columns_[static_cast<size_t>(i)]; }
  /// All columns in schema order.
  const std::vector<std::shared_ptr<ArrayData>>& columns() const { return columns_; }

  /// Zero-copy rows [offset, offset + length), clamped to the batch.
  std::shared_ptr<RecordBatch> Slice(int64_t offset, int64_t length) const;
  /// ValidateFull() of every column, plus: no nulls in non-nullable fields.
  Status ValidateFull() const;
  /// Equal schemas (without metadata) and ArrayEquals columns.
  bool Equals(const RecordBatch& other) const;
  /// The schema and every column, for test messages.
  std::string ToString() const;

 private:
  SchemaPtr schema_;
  int64_t num_rows_;
  std::vector<std::shared_ptr<ArrayData>> columns_;
};

}  // namespace recflow
