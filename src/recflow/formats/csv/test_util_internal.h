// Test helpers for the CSV reader: read a string whole and look at cells.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/testing/drain.h"
#include "recflow/columnar/array.h"
#include "recflow/columnar/builder.h"
#include "recflow/formats/csv/csv_reader.h"

namespace recflow::csv::testing {

/// Reads every batch of `text`.
inline Result<std::vector<std::shared_ptr<RecordBatch>>> ReadBatches(std::string_view text, const ReadOptions& options) {
  ASSIGN_OR_RETURN(auto reader, CsvReader::FromBuffer(Buffer::FromString(std::string(text)), "test.csv", options));
  return ::recflow::testing::DrainReader(*reader);
}

/// Reads `text` as one batch (an empty batch of the schema when there are no rows).
inline Result<std::shared_ptr<RecordBatch>> ReadOne(std::string_view text, ReadOptions options = ReadOptions::Defaults()) {
  options.batch_rows = int64_t{1} << 40;
  ASSIGN_OR_RETURN(auto reader, CsvReader::FromBuffer(Buffer::FromString(std::string(text)), "test.csv", options));
  ASSIGN_OR_RETURN(auto batch, reader->Next());
  if (!batch) {
    std::vector<std::shared_ptr<ArrayData>> empty;
    for (const auto& field : reader->schema()->fields()) {
      ASSIGN_OR_RETURN(auto builder, MakeBuilder(field->type()));
      ASSIGN_OR_RETURN(auto column, builder->Finish());
      empty.push_back(std::move(column));
    }
    return RecordBatch::Make(reader->schema(), 0, std::move(empty));
  }
  RETURN_NOT_OK(batch->ValidateFull());
  return batch;
}

/// Cell (row, col) of a utf8/binary column; "<null>" for null.
inline std::string Str(const RecordBatch& b, int col, int64_t row) {
  BinaryArray a(b.column_data(col));
  return a.IsNull(row) ? "<null>" : std::string(a.GetView(row));
}

}  // namespace recflow::csv::testing
