// ColumnWriter: checks a JSON value against one schema field and appends it to the field's builder.
#pragma once

#include <simdjson.h>

#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::jsonl {

/// Fills one column (and, for list and struct, its children) from JSON values in two steps,
/// so that a record is appended to all columns or to none: Check() every column of a record
/// first, then Append() them. A `value` of nullptr stands for a missing key.
class ColumnWriter {
 public:
  virtual ~ColumnWriter() = default;

  /// A writer for `field` (a type ReadOptions::Validate accepts) appending to `builder`, which
  /// must be a builder of the field's type and outlive the writer. `path` names the field in
  /// errors ("a.b", "tags[]").
  static Result<std::unique_ptr<ColumnWriter>> Make(const Field& field, ArrayBuilder* builder, std::string path);

  /// The writer of a whole record: a JSON object whose members fill the schema's columns,
  /// field i appending to builders[i] (builders of the fields' types, outliving the writer).
  static Result<std::unique_ptr<ColumnWriter>> MakeRecord(const Schema& schema,
                                                          const std::vector<ArrayBuilder*>& builders);

  /// OK when `value` fits the field; otherwise a DataError naming the field (context().field
  /// = the path) and the mismatch.
  Status Check(const simdjson::dom::element* value);
  /// Appends `value`, which Check() accepted; fails only when memory runs out.
  Status Append(const simdjson::dom::element* value);

  /// For the kinds behind Make(): appends to `builder`; `nullable` from the field.
  ColumnWriter(ArrayBuilder* builder, std::string path, bool nullable)
      : builder_(builder), path_(std::move(path)), nullable_(nullable) {}

 protected:

  /// Check() of a non-null value.
  virtual Status CheckValue(simdjson::dom::element value) = 0;
  /// Append() of a non-null value that CheckValue() accepted.
  virtual Status AppendValue(simdjson::dom::element value) = 0;
  /// A DataError "field 'PATH': MESSAGE" with the field set.
  Status Error(const std::string& message) const;
  /// "expected TYPE, found KIND" for `value`.
  Status Mismatch(simdjson::dom::element value, const char* expected) const;

  ArrayBuilder* builder_;

 private:
  std::string path_;
  bool nullable_;
};

}  // namespace recflow::jsonl
