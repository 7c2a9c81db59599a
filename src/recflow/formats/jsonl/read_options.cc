// ReadOptions validation: sizes, depth and the types an explicit schema may use.
#include "recflow/formats/jsonl/read_options.h"

#include <string>

namespace recflow::jsonl {
namespace {

// OK when `type` is one the reader can fill, nesting at most `levels_left` more levels.
Status CheckType(const Field& field, int levels_left) {
  const DataType& type = *field.type();
  if (type.is_primitive()) return Status::OK();
  if (type.is_nested()) {
    if (levels_left <= 0) {
      return Status::InvalidArgument("jsonl schema field '" + field.name() + "' nests deeper than max_depth");
    }
    for (const auto& child : type.fields()) RETURN_NOT_OK(CheckType(*child, levels_left - 1));
    return Status::OK();
  }
  return Status::InvalidArgument("jsonl cannot read field '" + field.name() + "' of type " + type.ToString());
}

}  // namespace

Status ReadOptions::Validate() const {
  constexpr int64_t kMaxBytes = int64_t{1} << 30;
  constexpr int kMaxDepth = 1024;
  if (block_size < 1 || block_size > kMaxBytes) {
    return Status::InvalidArgument("jsonl block_size must be in [1, 1 GiB], got " + std::to_string(block_size));
  }
  if (max_record_bytes < 1 || max_record_bytes > kMaxBytes) {
    return Status::InvalidArgument("jsonl max_record_bytes must be in [1, 1 GiB], got " +
                                   std::to_string(max_record_bytes));
  }
  if (batch_rows < 1) return Status::InvalidArgument("jsonl batch_rows must be positive");
  if (inference_rows < 1) return Status::InvalidArgument("jsonl inference_rows must be positive");
  if (max_depth < 1 || max_depth > kMaxDepth) {
    return Status::InvalidArgument("jsonl max_depth must be in [1, 1024], got " + std::to_string(max_depth));
  }
  for (const SchemaPtr& s : {schema, type_hints}) {
    if (s == nullptr) continue;
    for (const auto& field : s->fields()) RETURN_NOT_OK(CheckType(*field, max_depth - 1));
  }
  return Status::OK();
}

}  // namespace recflow::jsonl
