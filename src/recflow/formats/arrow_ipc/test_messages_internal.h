// Test support: builds Arrow IPC messages, batch bodies and files with flatbuffers::FlatBufferBuilder (hand-made, hostile or not).
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

/// The bytes of `values` as they lie in memory.
template <typename T>
std::string Bytes(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

/// A batch body: buffers appended at chosen offsets.
struct Body {
  std::string bytes;
  std::vector<fb::Buffer> buffers;
  /// Appends `data` after `pad` zero bytes (a misaligned buffer when pad is not a multiple of 8).
  void Add(const std::string& data, int pad = 0) {
    bytes.append(static_cast<size_t>(pad), '\0');
    buffers.emplace_back(static_cast<int64_t>(bytes.size()), static_cast<int64_t>(data.size()));
    bytes += data;
    while (bytes.size() % 8 != 0) bytes.push_back('\0');
  }
};

/// A framed RecordBatch message (or DictionaryBatch when `dictionary_id` >= 0); `variadic_counts`
/// (the view arrays' data buffers) when not empty.
inline std::string BatchMessage(int64_t length, const std::vector<fb::FieldNode>& nodes, const Body& body,
                                int codec = -1, int64_t dictionary_id = -1, bool is_delta = false,
                                fb::MetadataVersion version = fb::MetadataVersion::V5,
                                const std::vector<int64_t>& variadic_counts = {}) {
  flatbuffers::FlatBufferBuilder fbb;
  flatbuffers::Offset<fb::BodyCompression> compression = 0;
  if (codec >= 0) compression = fb::CreateBodyCompression(fbb, static_cast<fb::CompressionType>(codec));
  auto batch = fb::CreateRecordBatchDirect(fbb, length, &nodes, &body.buffers, compression,
                                           variadic_counts.empty() ? nullptr : &variadic_counts);
  const auto size = static_cast<int64_t>(body.bytes.size());
  if (dictionary_id >= 0) {
    auto dict = fb::CreateDictionaryBatch(fbb, dictionary_id, batch, is_delta);
    fbb.Finish(fb::CreateMessage(fbb, version, fb::MessageHeader::DictionaryBatch, dict.Union(), size));
  } else {
    fbb.Finish(fb::CreateMessage(fbb, version, fb::MessageHeader::RecordBatch, batch.Union(), size));
  }
  return Frame(fbb, body.bytes);
}

/// A nullable utf8 field "s" encoded as dictionary 0 with int8 indices.
inline flatbuffers::Offset<fb::Field> DictionaryField(flatbuffers::FlatBufferBuilder& fbb) {
  auto encoding = fb::CreateDictionaryEncoding(fbb, 0, fb::CreateInt(fbb, 8, true), false);
  return MakeField(fbb, "s", fb::Type::Utf8, fb::CreateUtf8(fbb).Union(), {}, encoding);
}

/// A schema of the one DictionaryField.
inline std::string DictionarySchemaMessage() {
  flatbuffers::FlatBufferBuilder fbb;
  FinishSchemaMessage(fbb, {DictionaryField(fbb)});
  return Frame(fbb);
}

/// An IPC file of the DictionaryField schema holding `dictionaries` and then `batches` (framed
/// messages), with a footer listing their blocks in that order.
inline std::string DictionaryFile(const std::vector<std::string>& dictionaries,
                                  const std::vector<std::string>& batches) {
  std::string out = std::string("ARROW1\0\0", 8) + DictionarySchemaMessage();
  const auto append = [&out](const std::string& message, std::vector<fb::Block>& blocks) {
    int32_t metadata = 0;
    std::memcpy(&metadata, message.data() + 4, 4);
    blocks.emplace_back(static_cast<int64_t>(out.size()), 8 + metadata, static_cast<int64_t>(message.size()) - 8 - metadata);
    out += message;
  };
  std::vector<fb::Block> dictionary_blocks, batch_blocks;
  for (const auto& m : dictionaries) append(m, dictionary_blocks);
  for (const auto& m : batches) append(m, batch_blocks);
  out += EndOfStream();
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::Field>> fields = {DictionaryField(fbb)};
  auto schema = fb::CreateSchemaDirect(fbb, fb::Endianness::Little, &fields);
  fbb.Finish(fb::CreateFooterDirect(fbb, fb::MetadataVersion::V5, schema, &dictionary_blocks, &batch_blocks));
  const auto footer_length = static_cast<int32_t>(fbb.GetSize());
  out.append(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
  out.append(reinterpret_cast<const char*>(&footer_length), 4);
  return out + "ARROW1";
}

/// A DictionaryBatch of dictionary 0 holding the utf8 `values` (replacing or, with `is_delta`,
/// extending the dictionary).
inline std::string DictionaryMessage(const std::vector<std::string>& values, bool is_delta) {
  std::vector<int32_t> offsets = {0};
  std::string data;
  for (const auto& v : values) {
    data += v;
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  Body body;
  body.Add("");
  body.Add(Bytes(offsets));
  body.Add(data);
  const auto n = static_cast<int64_t>(values.size());
  return BatchMessage(n, {fb::FieldNode(n, 0)}, body, -1, 0, is_delta);
}

/// A RecordBatch of the DictionaryField schema: the int8 `indices`, without nulls.
inline std::string IndicesMessage(const std::vector<int8_t>& indices) {
  Body body;
  body.Add("");
  body.Add(Bytes(indices));
  const auto n = static_cast<int64_t>(indices.size());
  return BatchMessage(n, {fb::FieldNode(n, 0)}, body);
}

}  // namespace recflow::arrow_ipc::testing
