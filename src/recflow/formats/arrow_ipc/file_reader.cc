// FileReader: file magic and footer parsing, block bounds checks, and block message reads.
#include "recflow/formats/arrow_ipc/file_reader.h"

#include <cstring>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/flatbuf_internal.h"
#include "recflow/formats/arrow_ipc/message_reader.h"
#include "recflow/formats/arrow_ipc/schema_desc_internal.h"

namespace recflow::arrow_ipc {
namespace {

bool HasMagicAt(const Buffer& data, int64_t at) {
  return std::memcmp(data.data() + at, kFileMagic.data(), kFileMagic.size()) == 0;
}

}  // namespace

Status FileReader::Error(const std::string& what, int64_t at) const {
  return Status::DataError("arrow ipc file: " + what).WithFile(name_).WithOffset(at);
}

Result<std::unique_ptr<FileReader>> FileReader::Open(std::shared_ptr<Buffer> data, std::string name) {
  std::unique_ptr<FileReader> reader(new FileReader());
  reader->data_ = std::move(data);
  reader->name_ = std::move(name);
  RETURN_NOT_OK(reader->ParseFooter());
  return reader;
}

Result<std::unique_ptr<FileReader>> FileReader::OpenFile(const std::string& path, FileSystem& fs) {
  Result<std::shared_ptr<Buffer>> data = fs.ReadWholeFile(path);
  if (!data.ok()) return data.status().WithFile(path);
  return Open(std::move(data).ValueUnsafe(), path);
}

Status FileReader::ParseFooter() {
  const int64_t size = data_->size();
  if (size < kFileHeaderSize + kFileTrailerSize) {
    return Error("file of " + std::to_string(size) + " bytes is too small for an Arrow IPC file", 0);
  }
  if (!HasMagicAt(*data_, 0)) return Error("file does not start with ARROW1", 0);
  if (!HasMagicAt(*data_, size - static_cast<int64_t>(kFileMagic.size()))) {
    return Error("file does not end with ARROW1", size - static_cast<int64_t>(kFileMagic.size()));
  }
  const int64_t length_at = size - kFileTrailerSize;
  int32_t footer_length = 0;
  std::memcpy(&footer_length, data_->data() + length_at, sizeof(footer_length));
  if (footer_length <= 0 || footer_length > length_at - kFileHeaderSize) {
    return Error("footer length " + std::to_string(footer_length) + " is out of range", length_at);
  }
  const int64_t footer_at = length_at - footer_length;
  ASSIGN_OR_RETURN(auto footer_bytes, Buffer::Slice(data_, footer_at, footer_length));
  if (reinterpret_cast<uintptr_t>(footer_bytes->data()) % kMessageAlignment != 0) {
    ASSIGN_OR_RETURN(footer_bytes, Buffer::CopyOf(footer_bytes->span()));
  }
  auto verifier = MakeVerifier(footer_bytes->data(), footer_bytes->size());
  if (!fb::VerifyFooterBuffer(verifier)) return Error("footer is not a valid Footer flatbuffer", footer_at);
  const fb::Footer* footer = fb::GetFooter(footer_bytes->data());
  const auto version = static_cast<int>(footer->version());
  if (version < 0 || version > static_cast<int>(MetadataVersion::kV5)) {
    return Error("unknown footer metadata version " + std::to_string(version), footer_at);
  }
  version_ = static_cast<MetadataVersion>(version);
  ASSIGN_OR_RETURN(schema_, SchemaFromFlatbuffer(footer->schema(), ErrorSite{name_, footer_at}));
  if (const auto* entries = footer->custom_metadata()) {
    for (const fb::KeyValue* kv : *entries) {
      footer_metadata_.emplace_back(kv->key() ? kv->key()->str() : "", kv->value() ? kv->value()->str() : "");
    }
  }
  const auto convert = [&](const flatbuffers::Vector<const fb::Block*>* blocks, std::vector<FileBlock>& out,
                           const char* what) -> Status {
    if (blocks == nullptr) return Status::OK();
    // flatbuffers::Verifier checks a struct vector's length field, not its elements' 8-byte
    // alignment; reading a misaligned Block would be undefined behaviour. (An empty vector's data
    // may sit anywhere.)
    if (blocks->size() > 0 && reinterpret_cast<uintptr_t>(blocks->Data()) % alignof(fb::Block) != 0) {
      return Error(std::string(what) + " blocks are not 8-byte aligned", footer_at);
    }
    out.reserve(blocks->size());
    for (flatbuffers::uoffset_t i = 0; i < blocks->size(); ++i) {
      const fb::Block* b = blocks->Get(i);
      const FileBlock block{b->offset(), b->metaDataLength(), b->bodyLength()};
      // Each block lies between the leading magic and the footer (checked without overflow:
      // `room` is computed only once the offset is known to be in range).
      const bool offset_ok = block.offset >= kFileHeaderSize && block.offset < footer_at;
      const int64_t room = offset_ok ? footer_at - block.offset : 0;
      if (!offset_ok || block.metadata_length <= 0 || block.body_length < 0 || block.metadata_length > room ||
          block.body_length > room - block.metadata_length) {
        return Error(std::string(what) + " block " + std::to_string(i) + " (offset " + std::to_string(block.offset) +
                         ", metadata " + std::to_string(block.metadata_length) + ", body " +
                         std::to_string(block.body_length) + ") lies outside the file's messages",
                     footer_at);
      }
      out.push_back(block);
    }
    return Status::OK();
  };
  RETURN_NOT_OK(convert(footer->dictionaries(), dictionaries_, "dictionary"));
  RETURN_NOT_OK(convert(footer->recordBatches(), record_batches_, "record batch"));
  return Status::OK();
}

Result<Message> FileReader::ReadBlockMessage(const FileBlock& block) const {
  ASSIGN_OR_RETURN(auto bytes, Buffer::Slice(data_, block.offset, block.metadata_length + block.body_length));
  ASSIGN_OR_RETURN(auto messages, MessageReader::FromBuffer(std::move(bytes), name_, block.offset));
  ASSIGN_OR_RETURN(std::optional<Message> message, messages->Next());
  if (!message) return Error("block holds no message", block.offset);
  if (message->framed_metadata_size != block.metadata_length || message->body->size() != block.body_length) {
    return Error("message (metadata " + std::to_string(message->framed_metadata_size) + ", body " +
                     std::to_string(message->body->size()) + " bytes) does not match its block (metadata " +
                     std::to_string(block.metadata_length) + ", body " + std::to_string(block.body_length) + ")",
                 block.offset);
  }
  return std::move(*message);
}

Result<BatchMessage> FileReader::ReadDictionary(int i) const {
  if (i < 0 || i >= num_dictionaries()) return Status::InvalidArgument("arrow ipc file: no dictionary " + std::to_string(i));
  ASSIGN_OR_RETURN(Message message, ReadBlockMessage(dictionaries_[i]));
  if (message.type != MessageType::kDictionaryBatch) {
    return Error("dictionary block " + std::to_string(i) + " holds a " + std::string(MessageTypeName(message.type)),
                 message.offset);
  }
  return DescribeBatchMessage(schema_, std::move(message));
}

Result<BatchMessage> FileReader::ReadRecordBatch(int i) const {
  if (i < 0 || i >= num_record_batches()) {
    return Status::InvalidArgument("arrow ipc file: no record batch " + std::to_string(i));
  }
  ASSIGN_OR_RETURN(Message message, ReadBlockMessage(record_batches_[i]));
  if (message.type != MessageType::kRecordBatch) {
    return Error("record batch block " + std::to_string(i) + " holds a " + std::string(MessageTypeName(message.type)),
                 message.offset);
  }
  return DescribeBatchMessage(schema_, std::move(message));
}

}  // namespace recflow::arrow_ipc
