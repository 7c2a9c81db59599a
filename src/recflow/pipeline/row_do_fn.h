// Row functions: the per-row convenience over DoFn ("load one image"), run in parallel over a batch's rows.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "recflow/pipeline/do_fn.h"
#include "recflow/pipeline/row_value.h"

namespace recflow::pipeline {

/// Read access to one input row.
class RowView {
 public:
  RowView(const RecordBatch& batch, int64_t row, uint64_t key, RunFiles* run_files)
      : batch_(batch), row_(row), key_(key), run_files_(run_files) {}
  /// The row's index in its batch.
  int64_t index() const { return row_; }
  /// The row's stable identity in the whole input (see ProcessContext::RowKey).
  uint64_t key() const { return key_; }
  /// The batch's schema.
  const Schema& schema() const { return *batch_.schema(); }
  /// Column `column`'s value in this row (see ReadRowValue).
  Result<RowValue> Get(int column) const;
  /// The same, by column name; NotFound for an unknown name.
  Result<RowValue> Get(std::string_view column) const;
  /// True when column `column` (0 <= column < schema().num_fields()) is null in this row.
  bool IsNull(int column) const;
  /// The run's file system (ProcessContext::file_system): where a row function's own files go.
  FileSystem& file_system() const { return run_files_->file_system(); }
  /// The run's files and stop token (ProcessContext::run_files).
  RunFiles& run_files() const { return *run_files_; }
  /// Column `column`'s bytes in this row without a copy (see HoldsBytes for the column types),
  /// valid while the batch lives; TypeError for another type, DataError for a null.
  Result<std::string_view> Bytes(int column) const;
  /// The elements of list column `column` (a list of one of HoldsBytes' types, as group_by_key
  /// makes) in this row without a copy, valid while the batch lives; TypeError for another type,
  /// DataError for a null list or a null element (naming its position).
  Result<std::vector<std::string_view>> BytesList(int column) const;

 private:
  const RecordBatch& batch_;
  int64_t row_;
  uint64_t key_;
  RunFiles* run_files_;
};

/// Output rows of one input row: each Emit() adds one row of the new columns' values.
class RowEmitter {
 public:
  /// Adds an output row; `values` holds one value per new column, in order.
  void Emit(std::vector<RowValue> values) { rows_.push_back(std::move(values)); }
  /// Rows emitted so far for the current input row.
  const std::vector<std::vector<RowValue>>& rows() const { return rows_; }
  /// Forgets the rows (between input rows).
  void Clear() { rows_.clear(); }

 private:
  std::vector<std::vector<RowValue>> rows_;
};

/// Code run once per input row; an error fails that row only (the step's on_error decides).
using RowFunction = std::function<Status(const RowView& row, RowEmitter& out)>;

/// A DoFn whose output rows are an input row's columns plus `new_fields` (a new field named
/// like an input column replaces it in place), one output row per Emit() of `fn` on that
/// input row. Rows are processed in parallel chunks; output order is input order.
std::shared_ptr<const DoFn> MakeRowDoFn(std::vector<FieldPtr> new_fields, RowFunction fn);

}  // namespace recflow::pipeline
