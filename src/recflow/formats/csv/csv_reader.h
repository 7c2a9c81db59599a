// CsvReader: RecordBatches from a CSV file or stream, with type inference, in bounded memory.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/buffer.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/csv/block_parser.h"
#include "recflow/formats/csv/read_options.h"

namespace recflow::csv {

class BlockSource;
class RowConverter;

/// Reads CSV (RFC 4180 with the options in ReadOptions; see docs/formats/csv.md) as
/// RecordBatches of ReadOptions::batch_rows rows. Opening reads the header and the inference
/// sample; Next() then streams block by block, so memory stays at about one block, one batch
/// and the sample, whatever the input size.
class CsvReader {
 public:
  /// Reads CSV bytes held in memory; `name` appears in errors.
  static Result<std::unique_ptr<CsvReader>> FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                       const ReadOptions& options);
  /// Reads a stream front to back; its name() appears in errors.
  static Result<std::unique_ptr<CsvReader>> FromStream(std::unique_ptr<InputStream> in, const ReadOptions& options);

  ~CsvReader();
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  /// The column names and types (explicit, or from the header and the inference sample).
  const SchemaPtr& schema() const { return schema_; }
  /// The header row's names (empty names as `_cN`); empty without ReadOptions::header.
  const std::vector<std::string>& header_names() const { return header_names_; }
  /// The next batch, or nullptr after the last one. After an error, every call returns it.
  Result<std::shared_ptr<RecordBatch>> Next();
  /// Rows left out so far under formats::BadRowsMode::kSkip.
  int64_t bad_rows() const { return bad_rows_; }

  /// Use FromBuffer() or FromStream().
  CsvReader(std::unique_ptr<InputStream> in, const ReadOptions& options);

 private:
  friend class CsvSource;  // takes over the parsed sample and the block source
  // A parsed block and the index of its next unread row.
  struct Pending {
    ParsedBlock block;
    size_t next_row = 0;
  };
  Status Init();
  Result<bool> LoadBlock();
  Status ReadHeader();
  Status CheckExpectedHeader() const;
  Status InferSchema();
  Status FillBatch();

  ReadOptions options_;
  std::string name_;
  std::unique_ptr<BlockSource> source_;
  std::deque<Pending> pending_;
  ParsedBlock recycled_;  // the last finished block, whose vectors the next block reuses
  std::vector<std::string> header_names_;
  SchemaPtr schema_;
  std::unique_ptr<RowConverter> converter_;  // made by the first Next(); a CsvSource needs none
  int64_t next_record_ = 0;
  int64_t bad_rows_ = 0;
  bool done_ = false;
  Status error_;
};

}  // namespace recflow::csv
