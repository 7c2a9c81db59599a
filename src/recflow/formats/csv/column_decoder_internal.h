// ColumnDecoder: parses the text of one CSV column's fields into its column builder.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::csv {

/// Converts field texts into one column, in two steps per row so that a row is appended to
/// all columns or to none: Stage() parses and holds a value, Commit() appends it.
class ColumnDecoder {
 public:
  virtual ~ColumnDecoder() = default;

  /// A decoder for `field` (a type ReadOptions::Validate accepts).
  static Result<std::unique_ptr<ColumnDecoder>> Make(const Field& field);

  /// Parses `value` and holds it; false when it does not parse (nothing held). For string
  /// columns the view must stay valid until Commit().
  virtual bool Stage(std::string_view value) = 0;
  /// Holds a null.
  virtual void StageNull() = 0;
  /// Appends the held value or null.
  virtual Status Commit() = 0;
  /// The column built so far; the decoder is empty afterwards.
  virtual Result<std::shared_ptr<ArrayData>> Finish() = 0;
  /// utf8 and binary columns keep empty fields as empty strings; typed columns read them as null.
  virtual bool is_string() const = 0;
  /// The name used in "cannot parse ... as NAME" ("int64", "timestamp", ...).
  virtual std::string_view type_name() const = 0;
};

}  // namespace recflow::csv
