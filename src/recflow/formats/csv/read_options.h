// ReadOptions: the CSV dialect, batching, null spellings, schema and bad-row policy of a reader.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/status.h"
#include "recflow/formats/bad_rows.h"

namespace recflow::csv {

/// The bytes that structure a CSV file (see docs/formats/csv.md).
struct Dialect {
  /// Separates fields; a single byte, not a quote, CR or LF.
  char delimiter = ',';
  /// Opens and closes quoted fields; doubled inside a quoted field it stands for itself.
  char quote = '"';
  /// When set, a row whose first byte is this character is skipped up to its LF.
  std::optional<char> comment;
};

/// How a CsvReader reads its input.
struct ReadOptions {
  /// Bytes read and chunked at a time (rows straddling a block are carried to the next one).
  int64_t block_size = int64_t{1} << 20;
  /// Rows per RecordBatch (the last batch may be shorter).
  int64_t batch_rows = 65536;
  /// Delimiter, quote and comment character.
  Dialect dialect;
  /// The first row names the columns; without it columns are named _c0, _c1, ... (as Spark).
  bool header = true;
  /// Unquoted field texts that mean null (quoted fields are never null). Default: the empty field.
  std::vector<std::string> null_values = {""};
  /// Data rows sampled for type inference (ignored when `schema` is set).
  int64_t inference_rows = 10000;
  /// Mark an inferred column non-nullable when the sample covered the whole input and held no
  /// null there; when false (or when the input goes on past the sample) every inferred column is
  /// nullable, so that a null after the sample never fails valid data.
  bool infer_nullability = true;
  /// Explicit column names and types; overrides the header names and inference. Supported
  /// types: bool, int8..int64, uint8..uint64, float32, float64, utf8, binary, and int64 with
  /// the timestamp logical type (see recflow::kLogicalTypeKey in columnar/schema.h).
  SchemaPtr schema;
  /// Types of single columns that override inference (ApplySchemaHints, `--schema-hint`);
  /// ignored when `schema` is set. The same types as `schema`.
  SchemaPtr type_hints;
  /// When non-empty (and `header` is set), the header row must hold exactly these names, else a
  /// DataError naming the file and the first differing column. Used when files are read as one
  /// dataset, so a later file whose columns are reordered or renamed is not misread.
  std::vector<std::string> expected_header;
  /// Fail on the first bad row, or skip bad rows.
  formats::BadRowsMode bad_rows = formats::BadRowsMode::kFail;
  /// Receives every skipped row (optional; only with formats::BadRowsMode::kSkip).
  formats::BadRowHandler on_bad_row;
  /// Longest row (in bytes) the reader buffers; longer rows, such as the rest of a file after
  /// an unterminated quote, are a DataError. Bounds memory on hostile input.
  int64_t max_row_bytes = int64_t{64} << 20;

  /// Comma-separated, double-quoted, header row, empty field = null, inference over 10000 rows.
  static ReadOptions Defaults() { return {}; }
  /// Checks sizes, that delimiter/quote/comment are distinct and not CR/LF, and schema types.
  Status Validate() const;
  /// True when an unquoted field with this text is null.
  bool IsNullText(std::string_view text) const {
    for (const auto& n : null_values) {
      if (text == n) return true;
    }
    return false;
  }
};

}  // namespace recflow::csv
