// Typed partition values: directory text read as a column type, and the constant columns a file's rows get.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::dataset {

/// One file's value of one partition column: null (std::monostate), or a value of the column's
/// type: bool, int64_t for every signed integer type, uint64_t for every unsigned one, double
/// for float32 and float64, std::string for utf8.
using PartitionValue = std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string>;

/// True when `text` is `[+-]?[0-9]+`, of any length.
bool IsDecimalInteger(std::string_view text);

/// `[+-]?[0-9]+` fitting in int64 (Java's Long.parseLong), std::nullopt otherwise.
std::optional<int64_t> ParseDecimalInt64(std::string_view text);

/// Java's decimal Double.parseDouble grammar without whitespace and d/f suffixes:
/// `[+-]?(NaN|Infinity|digits[.digits?][exp]|.digits[exp])`, exp = `[eE][+-]?digits`;
/// std::nullopt when `text` does not match or is outside float64's range.
std::optional<double> ParseJavaDouble(std::string_view text);

/// Reads the (unescaped) directory text of a non-null partition value as `type`, the exact
/// inverse of how GroupRowsByPartition writes each type: `true`/`false`; decimal integers in
/// the type's range (a leading `+` accepted); floats in C++'s shortest form (`inf`, `-inf`,
/// `nan` included) or Java's (`Infinity`, `NaN`), in float32's range for float32; utf8 as it is.
/// DataError naming the value and the type otherwise, or for a type no directory holds.
Result<PartitionValue> ParsePartitionValue(std::string_view text, const DataType& type);

/// The shortest text that reads back as `v` (std::to_chars: `inf`, `-inf`, `nan` included): how
/// a float partition value is spelt in a directory name.
std::string PartitionFloatText(double v);

/// The directory text of a value, as GroupRowsByPartition writes it (ParsePartitionValue reads
/// it back as the column's type); std::nullopt for null.
std::optional<std::string> PartitionValueText(const PartitionValue& value);

/// Builds, for one file, one constant column of `num_rows` rows per field of `partition_schema`
/// holding that file's value (all nulls for a null value), ready to append to the file's record
/// batches. TypeError when a value does not match its field's type (bool, an integer, float32,
/// float64 or utf8) or is null for a non-nullable field; InvalidArgument when the counts differ
/// or num_rows < 0; DataError when a utf8 column would exceed its capacity.
Result<std::vector<std::shared_ptr<ArrayData>>> MakePartitionColumns(const Schema& partition_schema,
                                                                     const std::vector<PartitionValue>& values,
                                                                     int64_t num_rows);

}  // namespace recflow::dataset
