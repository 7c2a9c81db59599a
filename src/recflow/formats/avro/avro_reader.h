// AvroReader: RecordBatches from an Avro object container file, decoded by recflow's own Avro binary decoder.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/buffer.h"
#include "recflow/core/result.h"
#include "recflow/formats/avro/read_options.h"

namespace recflow::avro {

struct AvroInput;


/// Reads an Avro object container file (codecs null, deflate, snappy, zstandard, xz) as
/// RecordBatches of ReadOptions::batch_rows records; batches span container blocks. The
/// writer schema must be a record; each of its fields becomes a column (see
/// docs/formats/avro.md). Memory stays at about one container block and one batch.
class AvroReader {
 public:
  /// Opens a local file ("-" = stdin). NotFound or IOError when it cannot be opened, DataError when its
  /// header is not Avro's (or names an unsupported codec), TypeError when the schema has a type
  /// recflow cannot represent; all with the file name.
  static Result<std::unique_ptr<AvroReader>> Open(const std::string& path, const ReadOptions& options);
  /// Reads Avro bytes held in memory (kept alive by the reader); `name` appears in errors.
  static Result<std::unique_ptr<AvroReader>> FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                        const ReadOptions& options);

  ~AvroReader();
  AvroReader(const AvroReader&) = delete;
  AvroReader& operator=(const AvroReader&) = delete;

  /// The columns: one per field of the writer's record schema, whose JSON text is also kept in
  /// the schema metadata under kAvroSchemaKey.
  const SchemaPtr& schema() const;
  /// The next batch, or nullptr after the last one. Errors are DataErrors naming the file, the
  /// byte offset (of the value for the null codec, else of the block), the 0-based record index
  /// and the field. After an error, every call returns it. With BadBlocksMode::kSkip, bad
  /// blocks are left out and reported to ReadOptions::on_skipped_block.
  Result<std::shared_ptr<RecordBatch>> Next();
  /// Records decoded so far (skipped blocks not counted).
  int64_t records_read() const { return next_record_; }

 private:
  struct State;
  explicit AvroReader(std::unique_ptr<State> state);
  static Result<std::unique_ptr<AvroReader>> Make(Result<AvroInput> input, const ReadOptions& options);
  Status FillBatch(std::shared_ptr<RecordBatch>* out);
  Result<bool> LoadBlock();
  void ReportSkipped(const Status& error) const;

  std::unique_ptr<State> state_;
  int64_t next_record_ = 0;
  bool done_ = false;
  Status error_;
};

}  // namespace recflow::avro
