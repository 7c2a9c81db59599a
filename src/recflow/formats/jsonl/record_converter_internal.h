// RecordConverter: appends parsed JSON records to a batch's columns, or says why one does not fit.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/formats/jsonl/column_writer_internal.h"
#include "recflow/formats/jsonl/line_source_internal.h"
#include "recflow/formats/jsonl/record_parser_internal.h"

namespace recflow::jsonl {

/// Builds RecordBatches of a fixed schema from JSON objects.
class RecordConverter {
 public:
  /// A converter for `schema` (validated by ReadOptions::Validate).
  static Result<std::unique_ptr<RecordConverter>> Make(SchemaPtr schema);

  /// OK when `record` (a JSON object) fits the schema; otherwise a DataError naming the field
  /// (without file or line: the caller adds them).
  Status Check(simdjson::dom::element record) { return writer_->Check(&record); }
  /// Appends a record that Check() accepted to every column. An error here (out of memory, a
  /// column over 2 GiB of string bytes) leaves the columns uneven: the reader must stop.
  Status Append(simdjson::dom::element record);
  /// Records appended since the last Finish().
  int64_t num_rows() const { return num_rows_; }
  /// The records appended so far as a batch; the converter is empty afterwards.
  Result<std::shared_ptr<RecordBatch>> Finish();

  /// Use Make().
  RecordConverter(SchemaPtr schema, std::vector<std::unique_ptr<ArrayBuilder>> builders,
                  std::unique_ptr<ColumnWriter> writer);

 private:
  SchemaPtr schema_;
  std::vector<std::unique_ptr<ArrayBuilder>> builders_;
  std::unique_ptr<ColumnWriter> writer_;
  int64_t num_rows_ = 0;
};

/// Parses `line` with `parser`, checks it against `converter`'s schema and appends it. A fault
/// of the record is a DataError "line N: ..." with `file`, the line's offset, `record` and the
/// field; nothing is appended then. Other errors (out of memory) are returned as they are.
Status ConvertLine(RecordParser* parser, RecordConverter* converter, const Line& line, const std::string& file,
                   int64_t record);

}  // namespace recflow::jsonl
