// RecordDecoder: the decoding plan of the top-level record, and DecodeBlock, which turns one block into a batch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/avro/avro_schema_internal.h"
#include "recflow/formats/avro/binary_cursor_internal.h"
#include "recflow/formats/avro/container_reader_internal.h"
#include "recflow/formats/avro/value_decoder_internal.h"

namespace recflow::avro {

/// One builder per column.
using ColumnBuilders = std::vector<std::unique_ptr<ArrayBuilder>>;

/// Decodes records of a writer schema into columns. Immutable: one plan is shared by every
/// thread decoding blocks of the file.
class RecordDecoder {
 public:
  /// Parses the writer schema, maps it to columns (see SchemaFromAvro) and compiles the plan.
  /// DataError for a bad schema text, TypeError for a type recflow cannot represent.
  static Result<std::shared_ptr<const RecordDecoder>> Make(const std::string& schema_json);

  /// The columns.
  const SchemaPtr& schema() const { return schema_; }
  /// Fresh, empty builders for the columns.
  Result<ColumnBuilders> MakeBuilders() const;
  /// Reads one record from `in`, appending one element to every builder.
  Status DecodeRecord(BinaryCursor& in, const ColumnBuilders& builders) const;
  /// DataError when `count` records cannot fit in `bytes` bytes (checked before decoding).
  Status CheckRecordCount(int64_t count, int64_t bytes) const;
  /// Finishes the builders into a batch of `rows` rows (the builders are reset for reuse).
  Result<std::shared_ptr<RecordBatch>> Finish(const ColumnBuilders& builders, int64_t rows) const;

 private:
  RecordDecoder() = default;

  SchemaPtr schema_;
  std::vector<std::unique_ptr<ValueDecoder>> fields_;
  int64_t min_record_size_ = 0;
};

/// A block's decompressed data and where its errors point.
struct BlockData {
  /// The bytes as the writer encoded them.
  std::shared_ptr<Buffer> bytes;
  /// Input offset of bytes[0] for the null codec, else -1 (see BinaryCursor).
  int64_t base_offset = -1;
};

/// Decompresses `block` (capped at `max_bytes`) and checks its record count against its size.
/// DataErrors carry the block's byte offset.
Result<BlockData> OpenBlock(const RecordDecoder& decoder, BlockCodec codec, const RawBlock& block, int64_t max_bytes);

/// DataError when `in` has bytes left after the last record of `block`.
Status CheckBlockEnd(const BinaryCursor& in, const RawBlock& block);

/// Decodes every record of `block` into one batch; the data must end exactly after the last
/// record. DataErrors carry the byte offset (of the value for the null codec, else of the
/// block), the record index counted from `first_record` and the field.
Result<std::shared_ptr<RecordBatch>> DecodeBlock(const RecordDecoder& decoder, BlockCodec codec, const RawBlock& block,
                                                 int64_t max_bytes, int64_t first_record);

}  // namespace recflow::avro
