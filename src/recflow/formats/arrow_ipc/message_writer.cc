// Message encoders shared by IpcWriter and convert's Arrow output: framing, batches, footer.
#include "recflow/formats/arrow_ipc/message_writer.h"

#include <cstring>

#include "recflow/formats/arrow_ipc/body_writer_internal.h"
#include "recflow/formats/arrow_ipc/framing.h"
#include "recflow/formats/arrow_ipc/schema_writer_internal.h"

namespace recflow::arrow_ipc {

namespace {

/// Frames a finished Message flatbuffer followed by `body`.
EncodedMessage Frame(const flatbuffers::FlatBufferBuilder& fbb, const std::string& body) {
  const auto size = static_cast<int64_t>(fbb.GetSize());
  const int64_t padded = (8 + size + kMessageAlignment - 1) / kMessageAlignment * kMessageAlignment - 8;
  EncodedMessage out;
  out.bytes.resize(static_cast<size_t>(8 + padded), '\0');
  const uint32_t marker = kContinuationMarker;
  const auto length = static_cast<int32_t>(padded);
  std::memcpy(out.bytes.data(), &marker, 4);
  std::memcpy(out.bytes.data() + 4, &length, 4);
  std::memcpy(out.bytes.data() + 8, fbb.GetBufferPointer(), static_cast<size_t>(size));
  out.bytes += body;
  out.metadata_length = 8 + padded;
  out.body_length = static_cast<int64_t>(body.size());
  return out;
}

BodyCodec CodecOf(const IpcWriteOptions& options) {
  switch (options.compression) {
    case IpcWriteOptions::Compression::kLz4Frame: return BodyCodec::kLz4Frame;
    case IpcWriteOptions::Compression::kZstd: return BodyCodec::kZstd;
    case IpcWriteOptions::Compression::kNone: break;
  }
  return BodyCodec::kNone;
}

/// The RecordBatch table of `columns` in `fbb`, and its body.
Result<flatbuffers::Offset<fb::RecordBatch>> BuildBatch(flatbuffers::FlatBufferBuilder& fbb,
                                                        const std::vector<const ArrayData*>& columns, int64_t length,
                                                        const IpcWriteOptions& options, std::string* body) {
  BodyWriter writer(CodecOf(options), options.level);
  for (const ArrayData* column : columns) RETURN_NOT_OK(writer.AppendArray(*column));
  flatbuffers::Offset<fb::BodyCompression> compression = 0;
  if (writer.codec() != BodyCodec::kNone) {
    compression = fb::CreateBodyCompression(
        fbb, writer.codec() == BodyCodec::kLz4Frame ? fb::CompressionType::LZ4_FRAME : fb::CompressionType::ZSTD);
  }
  const auto nodes = fbb.CreateVectorOfStructs(writer.nodes());
  const auto buffers = fbb.CreateVectorOfStructs(writer.buffers());
  *body = writer.body();
  return fb::CreateRecordBatch(fbb, length, nodes, buffers, compression);
}

std::vector<fb::Block> Blocks(const std::vector<MessageBlock>& blocks) {
  std::vector<fb::Block> out;
  for (const MessageBlock& b : blocks) out.emplace_back(b.offset, static_cast<int32_t>(b.metadata_length), b.body_length);
  return out;
}

}  // namespace

std::string EncodeSchemaMessage(const Schema& schema) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<DictionaryField> dictionaries;
  const auto table = BuildSchema(fbb, schema, &dictionaries);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::Schema, table.Union(), 0));
  return Frame(fbb, std::string()).bytes;
}

Result<EncodedMessage> EncodeRecordBatchMessage(const std::vector<const ArrayData*>& columns, int64_t length,
                                                const IpcWriteOptions& options) {
  flatbuffers::FlatBufferBuilder fbb;
  std::string body;
  ASSIGN_OR_RETURN(auto batch, BuildBatch(fbb, columns, length, options, &body));
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::RecordBatch, batch.Union(),
                               static_cast<int64_t>(body.size())));
  return Frame(fbb, body);
}

Result<EncodedMessage> EncodeDictionaryMessage(int64_t id, const ArrayData& values, const IpcWriteOptions& options) {
  flatbuffers::FlatBufferBuilder fbb;
  std::string body;
  ASSIGN_OR_RETURN(auto data, BuildBatch(fbb, {&values}, values.length, options, &body));
  const auto dictionary = fb::CreateDictionaryBatch(fbb, id, data, false);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::DictionaryBatch, dictionary.Union(),
                               static_cast<int64_t>(body.size())));
  return Frame(fbb, body);
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
  const auto dictionary_blocks = fbb.CreateVectorOfStructs(Blocks(dictionaries));
  const auto batch_blocks = fbb.CreateVectorOfStructs(Blocks(record_batches));
  fbb.Finish(fb::CreateFooter(fbb, fb::MetadataVersion::V5, schema_table, dictionary_blocks, batch_blocks));
  std::string out(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  const auto length = static_cast<int32_t>(fbb.GetSize());
  out.append(reinterpret_cast<const char*>(&length), sizeof(length));
  out.append(kFileMagic);
  return out;
}

std::string EncodeFileMagic() { return std::string("ARROW1\0\0", kFileHeaderSize); }

}  // namespace recflow::arrow_ipc
