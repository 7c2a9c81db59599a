// CSV output: rows as RFC 4180 lines that CsvReader reads back to the same values.
#pragma once

#include <memory>
#include <string>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/output_format.h"

namespace recflow::csv {

/// How CSV output is spelled (see docs/formats/csv.md, "Writing").
struct WriteOptions {
  /// Separates fields; a single byte, not the quote, CR or LF.
  char delimiter = ',';
  /// Encloses fields that need it; doubled inside them.
  char quote = '"';
  /// Start every file with a row of the column names (OutputFormat::FileHeader).
  bool header = true;
  /// Text of a null, written unquoted; must hold no delimiter, quote, CR or LF. A value whose
  /// text equals it is quoted, so the reader (with null_values = {null_text}) tells them apart.
  std::string null_text;
  /// Ends every row: "\n" or "\r\n".
  std::string line_terminator = "\n";

  /// Comma, double quote, header row, null = empty unquoted field, LF.
  static WriteOptions Defaults() { return {}; }
  /// Checks the characters and the line terminator (InvalidArgument).
  Status Validate() const;
};

/// The "csv" output format (suffix ".csv"). Values: bool as true/false, integers in decimal,
/// floats in their shortest round-trip form (inf, -inf, nan), utf8 as is, timestamps
/// (IsTimestampField) as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, nulls as null_text. A field is quoted
/// when it holds the delimiter, the quote, CR or LF, starts or ends with a space or tab, is
/// empty, or equals null_text. Columns of other types (binary, list, struct) are a TypeError
/// naming the column; a schema without columns is InvalidArgument. Encode fails (TypeError
/// naming column and row) only on a timestamp outside years 0000..9999.
Result<std::shared_ptr<const OutputFormat>> MakeCsvOutputFormat(SchemaPtr schema,
                                                               const WriteOptions& options = WriteOptions::Defaults());

}  // namespace recflow::csv
