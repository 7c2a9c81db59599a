// RecordDecoder and DecodeBlock: top-level records of a container block into column builders.
#include "recflow/formats/avro/record_decoder_internal.h"

#include <utility>

#include "recflow/formats/avro/schema_mapping_internal.h"

namespace recflow::avro {

Result<std::shared_ptr<const RecordDecoder>> RecordDecoder::Make(const std::string& schema_json) {
  ASSIGN_OR_RETURN(auto node, ParseAvroSchema(schema_json));
  std::shared_ptr<RecordDecoder> decoder(new RecordDecoder());
  ASSIGN_OR_RETURN(decoder->schema_, SchemaFromAvro(*node, schema_json));
  for (const AvroField& field : node->fields) {
    ASSIGN_OR_RETURN(auto value, ValueDecoder::Make(field.name, *field.type));
    decoder->min_record_size_ = SaturatingAdd(decoder->min_record_size_, value->min_size());
    decoder->fields_.push_back(std::move(value));
  }
  return std::shared_ptr<const RecordDecoder>(std::move(decoder));
}

Result<ColumnBuilders> RecordDecoder::MakeBuilders() const {
  ColumnBuilders builders;
  for (const FieldPtr& field : schema_->fields()) {
    ASSIGN_OR_RETURN(auto builder, MakeBuilder(field->type()));
    builders.push_back(std::move(builder));
  }
  return builders;
}

Status RecordDecoder::DecodeRecord(BinaryCursor& in, const ColumnBuilders& builders) const {
  for (size_t i = 0; i < fields_.size(); ++i) RETURN_NOT_OK(fields_[i]->Decode(in, builders[i].get()));
  return Status::OK();
}

Status RecordDecoder::CheckRecordCount(int64_t count, int64_t bytes) const {
  const int64_t limit = min_record_size_ > 0 ? bytes / min_record_size_ : kMaxZeroSizeItems;
  if (count > limit) {
    return Status::DataError("avro block claims " + std::to_string(count) + " records, more than its " +
                             std::to_string(bytes) + " bytes can hold");
  }
  return Status::OK();
}

Result<std::shared_ptr<RecordBatch>> RecordDecoder::Finish(const ColumnBuilders& builders, int64_t rows) const {
  std::vector<std::shared_ptr<ArrayData>> columns;
  columns.reserve(builders.size());
  for (const auto& builder : builders) {
    ASSIGN_OR_RETURN(auto column, builder->Finish());
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(schema_, rows, std::move(columns));
}

Result<BlockData> OpenBlock(const RecordDecoder& decoder, BlockCodec codec, const RawBlock& block, int64_t max_bytes) {
  BlockData out;
  auto bytes = DecompressBlock(codec, block.data, max_bytes);
  if (!bytes.ok()) return bytes.status().WithOffset(block.offset);
  out.bytes = *std::move(bytes);
  if (codec == BlockCodec::kNull) out.base_offset = block.data_offset;
  Status st = decoder.CheckRecordCount(block.count, out.bytes->size());
  if (!st.ok()) return st.WithOffset(block.offset);
  return out;
}

Status CheckBlockEnd(const BinaryCursor& in, const RawBlock& block) {
  if (in.remaining() == 0) return Status::OK();
  return in.Error(std::to_string(in.remaining()) + " bytes left in the block after its " + std::to_string(block.count) +
                  " records")
      .WithOffset(block.offset);
}

Result<std::shared_ptr<RecordBatch>> DecodeBlock(const RecordDecoder& decoder, BlockCodec codec, const RawBlock& block,
                                                 int64_t max_bytes, int64_t first_record) {
  ASSIGN_OR_RETURN(const BlockData data, OpenBlock(decoder, codec, block, max_bytes));
  ASSIGN_OR_RETURN(auto builders, decoder.MakeBuilders());
  BinaryCursor in(data.bytes->span(), data.base_offset);
  for (int64_t i = 0; i < block.count; ++i) {
    Status st = decoder.DecodeRecord(in, builders);
    if (!st.ok()) return st.WithOffset(block.offset).WithRecord(first_record + i);
  }
  RETURN_NOT_OK(CheckBlockEnd(in, block));
  return decoder.Finish(builders, block.count);
}

}  // namespace recflow::avro
