// RecordParser: parses one JSON Lines line into a simdjson DOM object, with bounded nesting.
#pragma once

#include <simdjson.h>

#include "recflow/core/result.h"
#include "recflow/formats/jsonl/line_source_internal.h"

namespace recflow::jsonl {

/// Wraps a reusable simdjson DOM parser. The element a Parse() returns lives until the next
/// Parse(); the parser keeps its largest allocation for reuse.
class RecordParser {
 public:
  /// Refuses records nesting objects and arrays deeper than `max_depth` (the record = 1).
  explicit RecordParser(int max_depth) : max_depth_(max_depth) {}

  /// The record on `line`, which must be one JSON object. A DataError (without file or line:
  /// the caller adds them) when it is not JSON, not an object or nests too deep.
  Result<simdjson::dom::element> Parse(const Line& line);

 private:
  int max_depth_;
  bool allocated_ = false;
  simdjson::dom::parser parser_;
};

}  // namespace recflow::jsonl
