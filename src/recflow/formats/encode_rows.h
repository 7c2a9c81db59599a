// EncodeRows: the checks, end offsets and rollback that every RecordEncoder::Encode shares.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/status.h"
#include "recflow/formats/output_format.h"

namespace recflow {

/// InvalidArgument unless `batch` has the schema `schema` (field metadata aside).
inline Status CheckBatchSchema(const Schema& schema, const RecordBatch& batch) {
  if (batch.schema().get() == &schema || batch.schema()->Equals(schema)) return Status::OK();
  return Status::InvalidArgument("the batch schema differs from the output format's");
}

/// InvalidArgument naming `row` unless it is a row of `batch`.
inline Status CheckRowInBatch(int64_t row, const RecordBatch& batch) {
  if (row >= 0 && row < batch.num_rows()) return Status::OK();
  return Status::InvalidArgument("row " + std::to_string(row) + " is outside a batch of " +
                                 std::to_string(batch.num_rows()) + " rows");
}

/// Implements RecordEncoder::Encode around `append_row`, a callable `Status(int64_t row)` that
/// appends exactly one record to out->bytes: checks that `batch` has the schema `schema` (field
/// metadata aside; the format's own schema decides logical types) and that each row is in range,
/// then appends the rows in the order given and each record's end to out->ends. On the first
/// failure *out is cut back to its previous size and the Status gets the row as its record.
template <typename AppendRow>
Status EncodeRows(const Schema& schema, const RecordBatch& batch, std::span<const int64_t> rows,
                  EncodedRecords* out, AppendRow&& append_row) {
  RETURN_NOT_OK(CheckBatchSchema(schema, batch));
  const size_t bytes_before = out->bytes.size();
  const size_t ends_before = out->ends.size();
  out->ends.reserve(ends_before + rows.size());
  for (const int64_t row : rows) {
    Status st = CheckRowInBatch(row, batch);
    if (st.ok()) st = append_row(row);
    if (!st.ok()) [[unlikely]] {
      out->bytes.resize(bytes_before);
      out->ends.resize(ends_before);
      return st.WithRecord(row);
    }
    out->ends.push_back(static_cast<int64_t>(out->bytes.size()));
  }
  return Status::OK();
}

}  // namespace recflow
