// ReadOptions validation.
#include "recflow/formats/csv/read_options.h"

#include <string>

namespace recflow::csv {
namespace {

bool IsLineByte(char c) { return c == '\n' || c == '\r'; }

}  // namespace

Status ReadOptions::Validate() const {
  constexpr int64_t kMaxBytes = int64_t{1} << 30;
  if (block_size < 1 || block_size > kMaxBytes) {
    return Status::InvalidArgument("csv block_size must be in [1, 1 GiB], got " + std::to_string(block_size));
  }
  if (max_row_bytes < 1 || max_row_bytes > kMaxBytes) {
    return Status::InvalidArgument("csv max_row_bytes must be in [1, 1 GiB], got " + std::to_string(max_row_bytes));
  }
  if (batch_rows < 1) return Status::InvalidArgument("csv batch_rows must be positive");
  if (inference_rows < 1) return Status::InvalidArgument("csv inference_rows must be positive");
  if (IsLineByte(dialect.delimiter) || IsLineByte(dialect.quote)) {
    return Status::InvalidArgument("csv delimiter and quote must not be CR or LF");
  }
  if (dialect.delimiter == dialect.quote) {
    return Status::InvalidArgument("csv delimiter and quote must differ");
  }
  if (dialect.comment.has_value()) {
    const char c = *dialect.comment;
    if (IsLineByte(c) || c == dialect.delimiter || c == dialect.quote) {
      return Status::InvalidArgument("csv comment character must differ from delimiter, quote, CR and LF");
    }
  }
  for (const SchemaPtr& s : {schema, type_hints}) {
    if (s == nullptr) continue;
    for (const auto& field : s->fields()) {
      if (!field->type()->is_primitive()) {
        return Status::InvalidArgument("csv cannot read column '" + field->name() + "' of type " +
                                       field->type()->ToString());
      }
    }
  }
  return Status::OK();
}

}  // namespace recflow::csv
