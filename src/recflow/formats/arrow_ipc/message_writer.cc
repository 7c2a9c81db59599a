// Message encoders shared by IpcWriter and convert's Arrow output: framing, batches, footer.
#include "recflow/formats/arrow_ipc/message_writer.h"

#include <cstring>

#include "recflow/formats/arrow_ipc/body_writer_internal.h"
#include "recflow/formats/arrow_ipc/framing.h"
#include "recflow/formats/arrow_ipc/schema_writer_internal.h"

namespace recflow::arrow_ipc {

namespace {

/// Frames a finished Message flatbuffer; the body (if any) is the caller's to add.
EncodedMessage Frame(const flatbuffers::FlatBufferBuilder& fbb) {
  const auto size = static_cast<int64_t>(fbb.GetSize());
  const int64_t padded = (8 + size + kMessageAlignment - 1) / kMessageAlignment * kMessageAlignment - 8;
  EncodedMessage out;
  out.metadata.resize(static_cast<size_t>(8 + padded), '\0');
  const uint32_t marker = kContinuationMarker;
  const auto length = static_cast<int32_t>(padded);
  std::memcpy(out.metadata.data(), &marker, 4);
  std::memcpy(out.metadata.data() + 4, &length, 4);
  std::memcpy(out.metadata.data() + 8, fbb.GetBufferPointer(), static_cast<size_t>(size));
  out.metadata_length = 8 + padded;
  return out;
}

/// Frames `fbb` with the body `writer` laid out.
EncodedMessage Frame(const flatbuffers::FlatBufferBuilder& fbb, BodyWriter* writer) {
  EncodedMessage out = Frame(fbb);
  out.body = writer->pieces();
  out.owned = std::move(writer->owned());
  out.made = std::move(writer->made());
  out.body_length = writer->body_length();
  return out;
}

/// A vector of 8-byte-aligned structs (FieldNode, Buffer, Block) whose data starts 8-byte aligned
/// even when empty, as strict readers require.
template <typename T>
flatbuffers::Offset<flatbuffers::Vector<const T*>> StructVector(flatbuffers::FlatBufferBuilder& fbb,
                                                               const std::vector<T>& items) {
  fbb.ForceVectorAlignment(items.size(), sizeof(T), 8);
  return fbb.CreateVectorOfStructs(items);
}

BodyCodec CodecOf(const IpcWriteOptions& options) {
  switch (options.compression) {
    case IpcWriteOptions::Compression::kLz4Frame: return BodyCodec::kLz4Frame;
    case IpcWriteOptions::Compression::kZstd: return BodyCodec::kZstd;
    case IpcWriteOptions::Compression::kNone: break;
  }
  return BodyCodec::kNone;
}

/// The RecordBatch table of `columns` in `fbb`, the body laid out in `writer`.
Result<flatbuffers::Offset<fb::RecordBatch>> BuildBatch(flatbuffers::FlatBufferBuilder& fbb,
                                                        const std::vector<const ArrayData*>& columns, int64_t length,
                                                        BodyWriter* writer) {
  for (const ArrayData* column : columns) RETURN_NOT_OK(writer->AppendArray(*column));
  flatbuffers::Offset<fb::BodyCompression> compression = 0;
  if (writer->codec() != BodyCodec::kNone) {
    compression = fb::CreateBodyCompression(
        fbb, writer->codec() == BodyCodec::kLz4Frame ? fb::CompressionType::LZ4_FRAME : fb::CompressionType::ZSTD);
  }
  const auto nodes = StructVector(fbb, writer->nodes());
  const auto buffers = StructVector(fbb, writer->buffers());
  flatbuffers::Offset<flatbuffers::Vector<int64_t>> counts = 0;  // only batches with view arrays have them
  if (!writer->variadic_buffer_counts().empty()) counts = fbb.CreateVector(writer->variadic_buffer_counts());
  return fb::CreateRecordBatch(fbb, length, nodes, buffers, compression, counts);
}

std::vector<fb::Block> Blocks(const std::vector<MessageBlock>& blocks) {
  std::vector<fb::Block> out;
  for (const MessageBlock& b : blocks) out.emplace_back(b.offset, static_cast<int32_t>(b.metadata_length), b.body_length);
  return out;
}

/// The record batch message of `columns` (`length` rows), bodies compressed as `options` say.
Result<EncodedMessage> EncodeRecordBatchMessage(const std::vector<const ArrayData*>& columns, int64_t length,
                                                const IpcWriteOptions& options) {
  flatbuffers::FlatBufferBuilder fbb;
  BodyWriter writer(CodecOf(options), options.level);
  ASSIGN_OR_RETURN(auto batch, BuildBatch(fbb, columns, length, &writer));
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::RecordBatch, batch.Union(),
                               writer.body_length()));
  return Frame(fbb, &writer);
}

/// The dictionary batch message holding `values` as dictionary `id` (`is_delta`: values to
/// append to the dictionary rather than replace it with).
Result<EncodedMessage> EncodeDictionaryMessage(int64_t id, const ArrayData& values, bool is_delta,
                                               const IpcWriteOptions& options) {
  flatbuffers::FlatBufferBuilder fbb;
  BodyWriter writer(CodecOf(options), options.level);
  ASSIGN_OR_RETURN(auto data, BuildBatch(fbb, {&values}, values.length, &writer));
  const auto dictionary = fb::CreateDictionaryBatch(fbb, id, data, is_delta);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::DictionaryBatch, dictionary.Union(),
                               writer.body_length()));
  return Frame(fbb, &writer);
}

}  // namespace

void EncodedMessage::AppendPieces(std::vector<std::string_view>* pieces) const {
  pieces->push_back(metadata);
  pieces->insert(pieces->end(), body.begin(), body.end());
}

std::string EncodeSchemaMessage(const Schema& schema) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<DictionaryField> dictionaries;
  const auto table = BuildSchema(fbb, schema, &dictionaries);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::Schema, table.Union(), 0));
  return Frame(fbb).metadata;
}

Result<EncodedBatchMessages> EncodeBatch(std::span<const DictionaryUpdate> updates,
                                         const std::vector<const ArrayData*>& columns, int64_t length,
                                         const IpcWriteOptions& options) {
  EncodedBatchMessages out;
  int64_t offset = 0;
  const auto add = [&](EncodedMessage message) {
    const MessageBlock block{offset, message.metadata_length, message.body_length};
    offset += message.metadata_length + message.body_length;
    out.messages.push_back(std::move(message));
    return block;
  };
  for (const DictionaryUpdate& update : updates) {
    ASSIGN_OR_RETURN(EncodedMessage message,
                     EncodeDictionaryMessage(update.id, *update.values, update.is_delta, options));
    out.dictionary_blocks.push_back(add(std::move(message)));
  }
  ASSIGN_OR_RETURN(EncodedMessage message, EncodeRecordBatchMessage(columns, length, options));
  out.batch_block = add(std::move(message));
  return out;
}

Result<EncodedBatchMessages> EncodeBatch(std::span<const DictionaryUpdate> updates, const RecordBatch& batch,
                                         const IpcWriteOptions& options) {
  std::vector<const ArrayData*> columns;
  columns.reserve(static_cast<size_t>(batch.num_columns()));
  for (int c = 0; c < batch.num_columns(); ++c) columns.push_back(batch.column_data(c).get());
  return EncodeBatch(updates, columns, batch.num_rows(), options);
}

void EncodedBatchMessages::AppendPieces(std::vector<std::string_view>* pieces) const {
  for (const EncodedMessage& message : messages) message.AppendPieces(pieces);
}

Status WriteBatches(std::span<const EncodedBatchMessages> batches, OutputStream* out) {
  std::vector<std::string_view> pieces;
  for (const EncodedBatchMessages& batch : batches) batch.AppendPieces(&pieces);
  return out->WriteGathered(pieces);
}

std::string EncodeEndOfStream() {
  const uint32_t eos[2] = {kContinuationMarker, 0};
  return std::string(reinterpret_cast<const char*>(eos), sizeof(eos));
}

std::string EncodeFileFooter(const Schema& schema, const std::vector<MessageBlock>& dictionaries,
                             const std::vector<MessageBlock>& record_batches) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<DictionaryField> unused;
  const auto schema_table = BuildSchema(fbb, schema, &unused);
  const auto dictionary_blocks = StructVector(fbb, Blocks(dictionaries));
  const auto batch_blocks = StructVector(fbb, Blocks(record_batches));
  fbb.Finish(fb::CreateFooter(fbb, fb::MetadataVersion::V5, schema_table, dictionary_blocks, batch_blocks));
  std::string out(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  const auto length = static_cast<int32_t>(fbb.GetSize());
  out.append(reinterpret_cast<const char*>(&length), sizeof(length));
  out.append(kFileMagic);
  return out;
}

std::string EncodeFileMagic() { return std::string("ARROW1\0\0", kFileHeaderSize); }

}  // namespace recflow::arrow_ipc
