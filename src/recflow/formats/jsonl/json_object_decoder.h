// JsonObjectDecoder: JSON objects decoded one at a time into rows of a fixed schema (a broker message's payload).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow::jsonl {

class RecordConverter;
class RecordParser;

/// Appends JSON objects as rows of `schema` exactly as the JSON Lines reader converts a line
/// (docs/formats/jsonl.md: keys not in the schema ignored, missing ones null), one object per
/// call, for inputs that arrive as separate payloads rather than lines.
class JsonObjectDecoder {
 public:
  /// A decoder for `schema` (types as ReadOptions::schema takes them), refusing objects nesting
  /// deeper than `max_depth`.
  static Result<std::unique_ptr<JsonObjectDecoder>> Make(SchemaPtr schema, int max_depth = 64);
  ~JsonObjectDecoder();

  /// Appends the row of `json` (one JSON object). A DataError without a location (the caller
  /// knows it) naming the field when `json` is not JSON, not an object or does not fit the
  /// schema; nothing is appended then. Other errors (out of memory) leave the decoder unusable.
  Status Append(std::string_view json);
  /// The rows appended since the last Finish(), as one batch; the decoder is empty afterwards.
  Result<std::shared_ptr<RecordBatch>> Finish();

  /// Use Make().
  JsonObjectDecoder(std::unique_ptr<RecordParser> parser, std::unique_ptr<RecordConverter> converter);

 private:
  std::unique_ptr<RecordParser> parser_;
  std::unique_ptr<RecordConverter> converter_;
  std::string padded_;  // the object being parsed, followed by simdjson's padding
};

}  // namespace recflow::jsonl
