// MessageReader: encapsulated message framing (current and legacy), metadata verification, body reads.
#include "recflow/formats/arrow_ipc/message_reader.h"

#include <cstring>
#include <string>

#include "recflow/formats/arrow_ipc/byte_source_internal.h"
#include "recflow/formats/arrow_ipc/flatbuf_internal.h"

namespace recflow::arrow_ipc {
namespace {

Status DataErrorAt(const std::string& name, int64_t at, const std::string& what) {
  return Status::DataError("arrow ipc: " + what).WithFile(name).WithOffset(at);
}

uint32_t LoadLittleEndian32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
         static_cast<uint32_t>(p[3]) << 24;
}

}  // namespace

Status MessageReaderOptions::Validate() const {
  if (max_metadata_bytes <= 0) return Status::InvalidArgument("arrow ipc: max_metadata_bytes must be positive");
  if (max_body_bytes < 0) return Status::InvalidArgument("arrow ipc: max_body_bytes must not be negative");
  return Status::OK();
}

Result<Message> ParseMessageMetadata(std::shared_ptr<Buffer> metadata, const std::string& name, int64_t offset) {
  auto verifier = MakeVerifier(metadata->data(), metadata->size());
  if (!fb::VerifyMessageBuffer(verifier)) {
    return DataErrorAt(name, offset, "message metadata is not a valid Message flatbuffer");
  }
  const fb::Message* root = fb::GetMessage(metadata->data());
  const auto version = static_cast<int>(root->version());
  if (version < 0 || version > static_cast<int>(MetadataVersion::kV5)) {
    return DataErrorAt(name, offset, "unknown metadata version " + std::to_string(version));
  }
  const auto header_type = static_cast<int>(root->header_type());
  if (header_type < static_cast<int>(MessageType::kSchema) || header_type > static_cast<int>(MessageType::kSparseTensor)) {
    return DataErrorAt(name, offset, "unknown message header type " + std::to_string(header_type));
  }
  if (root->header() == nullptr) return DataErrorAt(name, offset, "message has no header");
  if (root->bodyLength() < 0) {
    return DataErrorAt(name, offset, "negative message body length " + std::to_string(root->bodyLength()));
  }
  Message message;
  message.version = static_cast<MetadataVersion>(version);
  message.type = static_cast<MessageType>(header_type);
  message.metadata = std::move(metadata);
  message.source_name = name;
  return message;
}

MessageReader::MessageReader(std::unique_ptr<ByteSource> source, const MessageReaderOptions& options)
    : source_(std::move(source)), options_(options) {}

MessageReader::~MessageReader() = default;

Result<std::unique_ptr<MessageReader>> MessageReader::FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                                 int64_t base_offset,
                                                                 const MessageReaderOptions& options) {
  RETURN_NOT_OK(options.Validate());
  auto source = ByteSource::FromBuffer(std::move(data), std::move(name), base_offset);
  return std::unique_ptr<MessageReader>(new MessageReader(std::move(source), options));
}

Result<std::unique_ptr<MessageReader>> MessageReader::FromStream(std::unique_ptr<InputStream> in,
                                                                 const MessageReaderOptions& options) {
  RETURN_NOT_OK(options.Validate());
  return std::unique_ptr<MessageReader>(new MessageReader(ByteSource::FromStream(std::move(in)), options));
}

int64_t MessageReader::position() const { return source_->position(); }

const std::string& MessageReader::name() const { return source_->name(); }

Status MessageReader::Error(const std::string& what, int64_t at) const { return DataErrorAt(name(), at, what); }

Result<std::optional<Message>> MessageReader::Next() {
  if (done_) return std::optional<Message>();
  auto message = ReadOne();
  // After an error or the end the reader stays finished: it cannot resynchronise.
  if (!message.ok() || !message->has_value()) done_ = true;
  return message;
}

Result<std::optional<Message>> MessageReader::ReadOne() {
  const int64_t start = position();
  ASSIGN_OR_RETURN(auto word, source_->Read(4, false));
  if (word->size() == 0) return std::optional<Message>();  // clean end between messages
  if (word->size() < 4) return Error("truncated message length prefix", start);
  uint32_t length_word = LoadLittleEndian32(word->data());
  bool legacy = true;
  if (length_word == kContinuationMarker) {
    legacy = false;
    ASSIGN_OR_RETURN(word, source_->Read(4, false));
    if (word->size() < 4) return Error("truncated message length after the continuation marker", start);
    length_word = LoadLittleEndian32(word->data());
  }
  const auto metadata_length = static_cast<int32_t>(length_word);
  if (metadata_length == 0) {
    saw_eos_marker_ = true;
    return std::optional<Message>();
  }
  if (metadata_length < 0 || metadata_length > options_.max_metadata_bytes) {
    return Error("message metadata length " + std::to_string(metadata_length) + " is out of range", start);
  }
  const int64_t metadata_offset = position();
  ASSIGN_OR_RETURN(auto metadata, source_->Read(metadata_length, true));
  if (metadata->size() < metadata_length) {
    return Error("truncated message metadata: " + std::to_string(metadata_length) + " bytes declared, " +
                     std::to_string(metadata->size()) + " present",
                 metadata_offset);
  }
  ASSIGN_OR_RETURN(Message message, ParseMessageMetadata(std::move(metadata), name(), metadata_offset));
  const int64_t body_length = FlatbufMessage(message)->bodyLength();
  if (body_length > options_.max_body_bytes) {
    return Error("message body length " + std::to_string(body_length) + " exceeds the limit", metadata_offset);
  }
  message.offset = start;
  message.legacy_framing = legacy;
  message.framed_metadata_size = metadata_offset - start + metadata_length;
  message.body_offset = position();
  ASSIGN_OR_RETURN(message.body, source_->Read(body_length, false));
  if (message.body->size() < body_length) {
    return Error("truncated message body: " + std::to_string(body_length) + " bytes declared, " +
                     std::to_string(message.body->size()) + " present",
                 message.body_offset);
  }
  return std::optional<Message>(std::move(message));
}

}  // namespace recflow::arrow_ipc
