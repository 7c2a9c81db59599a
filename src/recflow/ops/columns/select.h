// Select, Drop and Rename: reshape a record batch's columns without touching their data.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow::ops {

/// A Select, Drop or Rename resolved once against an input schema: the output schema and, per
/// output column, the input column it is. Applies to any number of batches of that schema.
class Projection {
 public:
  /// Select of `names` for batches of `input` (errors as Select's).
  static Result<Projection> Select(SchemaPtr input, const std::vector<std::string>& names);
  /// Drop of `names` for batches of `input` (errors as Drop's).
  static Result<Projection> Drop(SchemaPtr input, const std::vector<std::string>& names);
  /// Rename by the (old, new) pairs for batches of `input` (errors as Rename's).
  static Result<Projection> Rename(SchemaPtr input, const std::vector<std::pair<std::string, std::string>>& renames);

  /// The schema the projection was resolved against.
  const SchemaPtr& input_schema() const { return input_; }
  /// The schema of its results.
  const SchemaPtr& output_schema() const { return output_; }
  /// `batch` reshaped (zero-copy); InvalidArgument when its schema is not the input schema.
  Result<std::shared_ptr<RecordBatch>> Apply(const RecordBatch& batch) const;

 private:
  Projection(const char* op, SchemaPtr input, std::vector<FieldPtr> fields, std::vector<int> columns);

  const char* op_;
  SchemaPtr input_;
  SchemaPtr output_;
  std::vector<int> columns_;  // output column i is input column columns_[i]
};

/// The columns `names` of `batch`, in that order (zero-copy). InvalidArgument naming a missing
/// column and listing the available ones; a name given twice is an InvalidArgument too.
Result<std::shared_ptr<RecordBatch>> Select(const RecordBatch& batch, const std::vector<std::string>& names);

/// `batch` without the columns `names` (zero-copy; the others keep their order).
/// InvalidArgument naming a missing column and listing the available ones.
Result<std::shared_ptr<RecordBatch>> Drop(const RecordBatch& batch, const std::vector<std::string>& names);

/// `batch` with columns renamed by the (old, new) pairs (zero-copy; order, types, nullability
/// and field metadata kept). InvalidArgument for a missing old name (listing the available
/// ones), an old name given twice, an empty new name, or a result with two equal names.
Result<std::shared_ptr<RecordBatch>> Rename(const RecordBatch& batch,
                                            const std::vector<std::pair<std::string, std::string>>& renames);

}  // namespace recflow::ops
