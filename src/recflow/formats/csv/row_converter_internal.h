// RowConverter: appends tokenized CSV rows to a batch's columns, or says why a row is bad.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/formats/csv/block_parser.h"
#include "recflow/formats/csv/column_decoder_internal.h"
#include "recflow/formats/csv/read_options.h"

namespace recflow::csv {

/// Builds RecordBatches of a fixed schema from rows of parsed blocks.
class RowConverter {
 public:
  /// A converter for `schema`; `file` names the input in errors.
  static Result<std::unique_ptr<RowConverter>> Make(SchemaPtr schema, const ReadOptions& options, std::string file);

  /// Appends `row` of `block` to every column, or appends nothing and returns a DataError
  /// (file, byte offset, record index `record`, field when a value is at fault; the message
  /// starts with the 1-based line).
  Status Append(const ParsedBlock& block, const RowRef& row, int64_t record);
  /// Rows appended since the last Finish().
  int64_t num_rows() const { return num_rows_; }
  /// The rows appended so far as a batch; the converter is empty afterwards.
  Result<std::shared_ptr<RecordBatch>> Finish();

  /// Use Make().
  RowConverter(SchemaPtr schema, const ReadOptions& options, std::string file,
               std::vector<std::unique_ptr<ColumnDecoder>> decoders);

 private:
  Status RowError(const ParsedBlock& block, const RowRef& row, int64_t record, int64_t block_offset,
                  const std::string& message) const;

  SchemaPtr schema_;
  const ReadOptions& options_;
  std::string file_;
  std::vector<std::unique_ptr<ColumnDecoder>> decoders_;
  std::vector<std::string> scratch_;  // one per column, for unescaped quoted values
  int64_t num_rows_ = 0;
};

}  // namespace recflow::csv
