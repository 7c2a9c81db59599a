// Test support: builds Arrow IPC messages and files with flatbuffers::FlatBufferBuilder (hand-made, hostile or not).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "recflow/formats/arrow_ipc/flatbuf_internal.h"

namespace recflow::arrow_ipc::testing {

/// Frames a finished Message flatbuffer: continuation marker (unless `legacy`), int32 length,
/// the flatbuffer padded to 8 bytes, then `body`.
inline std::string Frame(const flatbuffers::FlatBufferBuilder& fbb, const std::string& body = "", bool legacy = false) {
  std::string metadata(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  const size_t prefix = legacy ? 4 : 8;
  while ((prefix + metadata.size()) % 8 != 0) metadata.push_back('\0');
  std::string out;
  if (!legacy) out.append("\xFF\xFF\xFF\xFF", 4);
  const auto length = static_cast<int32_t>(metadata.size());
  out.append(reinterpret_cast<const char*>(&length), 4);
  return out + metadata + body;
}

/// The end-of-stream marker.
inline std::string EndOfStream() { return std::string("\xFF\xFF\xFF\xFF\0\0\0\0", 8); }

/// A field of a primitive type given by `type_type` / `type`.
inline flatbuffers::Offset<fb::Field> MakeField(flatbuffers::FlatBufferBuilder& fbb, const std::string& name,
                                                fb::Type type_type, flatbuffers::Offset<void> type,
                                                const std::vector<flatbuffers::Offset<fb::Field>>& children = {},
                                                flatbuffers::Offset<fb::DictionaryEncoding> dictionary = 0) {
  return fb::CreateFieldDirect(fbb, name.c_str(), true, type_type, type, dictionary, &children);
}

/// A Schema message of `fields`, finished in `fbb`.
inline void FinishSchemaMessage(flatbuffers::FlatBufferBuilder& fbb,
                                const std::vector<flatbuffers::Offset<fb::Field>>& fields,
                                fb::MetadataVersion version = fb::MetadataVersion::V5) {
  auto schema = fb::CreateSchemaDirect(fbb, fb::Endianness::Little, &fields);
  fbb.Finish(fb::CreateMessage(fbb, version, fb::MessageHeader::Schema, schema.Union(), 0));
}

/// A stream with one int32 column "x" (nullable): its schema message.
inline std::string Int32SchemaMessage() {
  flatbuffers::FlatBufferBuilder fbb;
  auto field = MakeField(fbb, "x", fb::Type::Int, fb::CreateInt(fbb, 32, true).Union());
  FinishSchemaMessage(fbb, {field});
  return Frame(fbb);
}

/// A RecordBatch message with the given nodes and buffers and a body of `body_size` zero bytes;
/// `codec` >= 0 adds a BodyCompression with that codec value.
inline std::string RecordBatchMessage(int64_t length, const std::vector<fb::FieldNode>& nodes,
                                      const std::vector<fb::Buffer>& buffers, int64_t body_size, int codec = -1) {
  flatbuffers::FlatBufferBuilder fbb;
  flatbuffers::Offset<fb::BodyCompression> compression = 0;
  if (codec >= 0) compression = fb::CreateBodyCompression(fbb, static_cast<fb::CompressionType>(codec));
  auto batch = fb::CreateRecordBatchDirect(fbb, length, &nodes, &buffers, compression);
  fbb.Finish(fb::CreateMessage(fbb, fb::MetadataVersion::V5, fb::MessageHeader::RecordBatch, batch.Union(), body_size));
  return Frame(fbb, std::string(static_cast<size_t>(body_size), '\0'));
}

/// An IPC file around `schema_message` + `batch_message` (both framed): the magic and padding,
/// the messages, the end-of-stream marker, a footer with an int32 schema and one record batch
/// block (`block` overrides the computed one when its metaDataLength is not 0), its length and
/// the magic.
inline std::string MakeFile(const std::string& schema_message, const std::string& batch_message,
                            int32_t batch_metadata_length, fb::Block block = fb::Block(0, 0, 0)) {
  std::string out = std::string("ARROW1\0\0", 8) + schema_message;
  if (block.metaDataLength() == 0) {
    block = fb::Block(static_cast<int64_t>(out.size()), batch_metadata_length,
                      static_cast<int64_t>(batch_message.size()) - batch_metadata_length);
  }
  out += batch_message + EndOfStream();
  flatbuffers::FlatBufferBuilder fbb;
  auto field = MakeField(fbb, "x", fb::Type::Int, fb::CreateInt(fbb, 32, true).Union());
  std::vector<flatbuffers::Offset<fb::Field>> fields = {field};
  auto schema = fb::CreateSchemaDirect(fbb, fb::Endianness::Little, &fields);
  std::vector<fb::Block> blocks = {block};
  fbb.Finish(fb::CreateFooterDirect(fbb, fb::MetadataVersion::V5, schema, nullptr, &blocks));
  const auto footer_length = static_cast<int32_t>(fbb.GetSize());
  out.append(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  out.append(reinterpret_cast<const char*>(&footer_length), 4);
  return out + "ARROW1";
}

}  // namespace recflow::arrow_ipc::testing
