// ReadOptions: batching, inference, nesting bound, schema and bad-record policy of a JSON Lines reader.
#pragma once

#include <cstdint>

#include "recflow/columnar/schema.h"
#include "recflow/core/status.h"
#include "recflow/formats/bad_rows.h"

namespace recflow::jsonl {

/// How a JsonlReader reads its input (see docs/formats/jsonl.md).
struct ReadOptions {
  /// Bytes read from the input at a time (a record straddling two reads is carried over).
  int64_t block_size = int64_t{1} << 20;
  /// Records per RecordBatch (the last batch may be shorter).
  int64_t batch_rows = 65536;
  /// Records sampled for type inference (ignored when `schema` is set).
  int64_t inference_rows = 10000;
  /// Mark an inferred field non-nullable when the sample covered the whole input and held no
  /// null there; when false (or when the input goes on past the sample) every inferred field is
  /// nullable, so that a null after the sample never fails valid data.
  bool infer_nullability = true;
  /// Infer strings that all parse as ISO-8601 (ParseTimestampMicros) as timestamps: int64
  /// microseconds tagged with kTimestampLogicalType, as the CSV reader does.
  bool infer_timestamps = true;
  /// Deepest nesting of objects and arrays in a record, the record object counting as 1.
  /// Deeper records are bad records; explicit schemas may not nest deeper either.
  int max_depth = 64;
  /// Explicit columns; overrides inference. Keys not in the schema are ignored and missing
  /// keys are null. Supported types: bool, int8..int64, uint8..uint64, float32, float64, utf8,
  /// binary, int64 with the timestamp logical type, list<T> and struct<...> of these.
  SchemaPtr schema;
  /// Types of single fields that override inference (ApplySchemaHints, `--schema-hint`);
  /// ignored when `schema` is set. The same types as `schema`.
  SchemaPtr type_hints;
  /// Fail on the first bad record, or skip bad records.
  formats::BadRowsMode bad_rows = formats::BadRowsMode::kFail;
  /// Receives every skipped record (optional; only with formats::BadRowsMode::kSkip).
  formats::BadRowHandler on_bad_row;
  /// Longest line (in bytes) the reader buffers; a longer one is a DataError that stops the
  /// reader whatever `bad_rows` says. Bounds memory on hostile input.
  int64_t max_record_bytes = int64_t{64} << 20;

  /// 1 MiB reads, 65536-record batches, inference over 10000 records, depth 64, fail on bad records.
  static ReadOptions Defaults() { return {}; }
  /// Checks sizes and depth, and that the schema's types are supported and nest at most
  /// max_depth - 1 levels below the record.
  Status Validate() const;
};

}  // namespace recflow::jsonl
