// JsonlReader: RecordBatches from a JSON Lines file or stream, with type inference, in bounded memory.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/buffer.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/jsonl/read_options.h"

namespace recflow::jsonl {

class LineSource;
struct Line;
class RecordConverter;
class RecordParser;

/// Reads JSON Lines (one JSON object per line; see docs/formats/jsonl.md) as RecordBatches of
/// ReadOptions::batch_rows records. Opening reads the inference sample (unless a schema is
/// given); Next() then streams line by line, so memory stays at about one block, one batch,
/// the longest record and the sample, whatever the input size.
class JsonlReader {
 public:
  /// Reads JSON Lines bytes held in memory; `name` appears in errors.
  static Result<std::unique_ptr<JsonlReader>> FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                         const ReadOptions& options);
  /// Reads a stream front to back; its name() appears in errors.
  static Result<std::unique_ptr<JsonlReader>> FromStream(std::unique_ptr<InputStream> in,
                                                         const ReadOptions& options);

  ~JsonlReader();
  JsonlReader(const JsonlReader&) = delete;
  JsonlReader& operator=(const JsonlReader&) = delete;

  /// The columns (explicit, or inferred from the sample: top-level keys in order of first
  /// appearance).
  const SchemaPtr& schema() const { return schema_; }
  /// The next batch, or nullptr after the last one. After an error, every call returns it.
  Result<std::shared_ptr<RecordBatch>> Next();
  /// Records left out so far under formats::BadRowsMode::kSkip.
  int64_t bad_rows() const { return bad_rows_; }

  /// Use FromBuffer() or FromStream().
  JsonlReader(std::unique_ptr<InputStream> in, const ReadOptions& options);

 private:
  friend class JsonlSource;  // takes over the sample replay and the line source
  // A sampled line kept for replay: its bytes are sample_text_[begin, begin + size).
  struct SampledLine {
    size_t begin;
    size_t size;
    int64_t offset;
    int64_t number;
  };
  Status Init();
  Status InferSchema();
  Result<std::optional<Line>> NextLine();
  Status AppendLine(const Line& line);
  Status FillBatch();

  ReadOptions options_;
  std::string name_;
  std::unique_ptr<LineSource> source_;
  std::unique_ptr<RecordParser> parser_;
  std::string sample_text_;  // the sampled lines, each followed by LF, then simdjson padding
  std::vector<SampledLine> sample_;
  size_t next_sampled_ = 0;
  SchemaPtr schema_;
  std::unique_ptr<RecordConverter> converter_;
  int64_t next_record_ = 0;
  int64_t bad_rows_ = 0;
  bool done_ = false;
  Status error_;
};

}  // namespace recflow::jsonl
