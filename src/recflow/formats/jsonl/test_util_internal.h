// Test helpers for the JSON Lines reader: read a string whole and look at cells.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/testing/drain.h"
#include "recflow/columnar/array.h"
#include "recflow/formats/jsonl/jsonl_reader.h"

namespace recflow::jsonl::testing {

/// Reads every batch of `text` (each validated).
inline Result<std::vector<std::shared_ptr<RecordBatch>>> ReadBatches(std::string_view text,
                                                                     const ReadOptions& options) {
  ASSIGN_OR_RETURN(auto reader, JsonlReader::FromBuffer(Buffer::FromString(std::string(text)), "test.jsonl", options));
  return ::recflow::testing::DrainReader(*reader);
}

/// Reads `text` as one batch (it must hold at least one record).
inline Result<std::shared_ptr<RecordBatch>> ReadOne(std::string_view text,
                                                   ReadOptions options = ReadOptions::Defaults()) {
  options.batch_rows = int64_t{1} << 40;
  ASSIGN_OR_RETURN(auto batches, ReadBatches(text, options));
  if (batches.size() != 1) return Status::Internal("expected one batch, got " + std::to_string(batches.size()));
  return batches[0];
}

/// The schema `text` infers with `options`.
inline Result<SchemaPtr> InferredSchema(std::string_view text, ReadOptions options = ReadOptions::Defaults()) {
  ASSIGN_OR_RETURN(auto reader, JsonlReader::FromBuffer(Buffer::FromString(std::string(text)), "test.jsonl", options));
  return reader->schema();
}

/// Cell `row` of a utf8/binary column; "<null>" for null.
inline std::string Str(const std::shared_ptr<ArrayData>& column, int64_t row) {
  BinaryArray a(column);
  return a.IsNull(row) ? "<null>" : std::string(a.GetView(row));
}

}  // namespace recflow::jsonl::testing
