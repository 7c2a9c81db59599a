// ReadRecordBatch / ReadDictionaryBatch: batch headers → descriptors, every count and buffer range checked.
#include "recflow/formats/arrow_ipc/batch_desc.h"

#include <string>

#include "recflow/formats/arrow_ipc/flatbuf_internal.h"

namespace recflow::arrow_ipc {
namespace {

Result<RecordBatchDesc> ConvertRecordBatch(const fb::RecordBatch* batch, int64_t body_size, const ErrorSite& site) {
  if (batch == nullptr) return site.Error("record batch header is missing");
  RecordBatchDesc out;
  out.length = batch->length();
  if (out.length < 0) return site.Error("negative record batch length " + std::to_string(out.length));
  // flatbuffers::Verifier checks a vector's length field, not its elements' 8-byte alignment;
  // reading misaligned FieldNodes, Buffers or int64 counts would be undefined behaviour.
  // (An empty vector's data may sit anywhere.)
  const auto misaligned = [](const auto* vector) {
    return vector != nullptr && vector->size() > 0 && reinterpret_cast<uintptr_t>(vector->Data()) % 8 != 0;
  };
  if (misaligned(batch->nodes()) || misaligned(batch->buffers()) || misaligned(batch->variadicBufferCounts())) {
    return site.Error("field nodes, buffers or variadic buffer counts are not 8-byte aligned");
  }
  if (const auto* nodes = batch->nodes()) {
    out.nodes.reserve(nodes->size());
    for (flatbuffers::uoffset_t i = 0; i < nodes->size(); ++i) {
      const fb::FieldNode* node = nodes->Get(i);
      if (node->length() < 0 || node->null_count() < 0 || node->null_count() > node->length()) {
        return site.Error("field node " + std::to_string(i) + " has length " + std::to_string(node->length()) +
                          " and null count " + std::to_string(node->null_count()));
      }
      out.nodes.push_back({node->length(), node->null_count()});
    }
  }
  if (const auto* buffers = batch->buffers()) {
    out.buffers.reserve(buffers->size());
    for (flatbuffers::uoffset_t i = 0; i < buffers->size(); ++i) {
      const fb::Buffer* buffer = buffers->Get(i);
      const int64_t offset = buffer->offset();
      const int64_t length = buffer->length();
      if (offset < 0 || length < 0 || offset > body_size || length > body_size - offset) {
        return site.Error("buffer " + std::to_string(i) + " (offset " + std::to_string(offset) + ", length " +
                          std::to_string(length) + ") lies outside the body of " + std::to_string(body_size) +
                          " bytes");
      }
      out.buffers.push_back({offset, length});
    }
  }
  if (const fb::BodyCompression* compression = batch->compression()) {
    const auto codec = static_cast<int>(compression->codec());
    if (codec < 0 || codec > static_cast<int>(fb::CompressionType::ZSTD)) {
      return site.Error("unknown body compression codec " + std::to_string(codec));
    }
    if (compression->method() != fb::BodyCompressionMethod::BUFFER) {
      return site.Error("unknown body compression method " + std::to_string(static_cast<int>(compression->method())));
    }
    out.compression = static_cast<CompressionCodec>(codec);
  }
  if (const auto* counts = batch->variadicBufferCounts()) {
    int64_t total = 0;
    for (flatbuffers::uoffset_t i = 0; i < counts->size(); ++i) {
      const int64_t count = counts->Get(i);
      if (count < 0 || count > static_cast<int64_t>(out.buffers.size()) - total) {
        return site.Error("variadic buffer count " + std::to_string(i) + " (" + std::to_string(count) +
                          ") is negative or more than the batch's " + std::to_string(out.buffers.size()) + " buffers");
      }
      total += count;
      out.variadic_buffer_counts.push_back(count);
    }
  }
  return out;
}

}  // namespace

std::string_view CompressionCodecName(CompressionCodec codec) {
  return codec == CompressionCodec::kLz4Frame ? "lz4_frame" : "zstd";
}

Result<RecordBatchDesc> ReadRecordBatch(const Message& message) {
  const ErrorSite site{message.source_name, message.offset};
  if (message.type != MessageType::kRecordBatch) {
    return site.Error("expected a record batch message, found a " + std::string(MessageTypeName(message.type)));
  }
  return ConvertRecordBatch(FlatbufMessage(message)->header_as_RecordBatch(), message.body->size(), site);
}

Result<DictionaryBatchDesc> ReadDictionaryBatch(const Message& message) {
  const ErrorSite site{message.source_name, message.offset};
  if (message.type != MessageType::kDictionaryBatch) {
    return site.Error("expected a dictionary batch message, found a " + std::string(MessageTypeName(message.type)));
  }
  const fb::DictionaryBatch* dictionary = FlatbufMessage(message)->header_as_DictionaryBatch();
  DictionaryBatchDesc out;
  out.id = dictionary->id();
  out.is_delta = dictionary->isDelta();
  ASSIGN_OR_RETURN(out.data, ConvertRecordBatch(dictionary->data(), message.body->size(), site));
  return out;
}

}  // namespace recflow::arrow_ipc
