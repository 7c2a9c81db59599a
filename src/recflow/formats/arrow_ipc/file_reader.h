// FileReader: the metadata of an Arrow IPC file — magic, footer, schema and random access to its blocks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/core/buffer.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/batch_message.h"
#include "recflow/formats/arrow_ipc/message.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc {

/// Where one message of an IPC file lies (a footer Block).
struct FileBlock {
  /// Byte offset of the message from the start of the file.
  int64_t offset = 0;
  /// Prefix + metadata flatbuffer + padding.
  int32_t metadata_length = 0;
  int64_t body_length = 0;
  bool operator==(const FileBlock&) const = default;
};

/// Reads the footer of an IPC file ("ARROW1", padding, stream messages, footer flatbuffer,
/// int32 footer length, "ARROW1") and gives random access to its dictionary and record batch
/// messages. Every block is checked to lie between the leading magic and the footer.
class FileReader {
 public:
  /// Opens an in-memory file (zero-copy; the reader keeps `data` alive).
  static Result<std::unique_ptr<FileReader>> Open(std::shared_ptr<Buffer> data, std::string name);
  /// Opens file `path` of `fs`, read whole (memory-mapped when large and local).
  static Result<std::unique_ptr<FileReader>> OpenFile(const std::string& path,
                                                      FileSystem& fs = *LocalFileSystem::Instance());

  /// The schema in the footer.
  const SchemaDesc& schema() const { return schema_; }
  /// The footer's metadata version.
  MetadataVersion version() const { return version_; }
  /// The footer's user metadata.
  const KeyValueMetadata& footer_metadata() const { return footer_metadata_; }
  /// Dictionary batch blocks in the footer.
  int num_dictionaries() const { return static_cast<int>(dictionaries_.size()); }
  /// Record batch blocks in the footer.
  int num_record_batches() const { return static_cast<int>(record_batches_.size()); }
  /// Block `i` (0 <= i < num_dictionaries()), already checked to lie inside the file.
  const FileBlock& dictionary_block(int i) const { return dictionaries_[i]; }
  /// Block `i` (0 <= i < num_record_batches()), already checked to lie inside the file.
  const FileBlock& record_batch_block(int i) const { return record_batches_[i]; }

  /// The message of `block`; its framing must match the block's metadata and body lengths.
  Result<Message> ReadBlockMessage(const FileBlock& block) const;
  /// Dictionary batch `i` (0 <= i < num_dictionaries()), checked against the schema.
  Result<BatchMessage> ReadDictionary(int i) const;
  /// Record batch `i` (0 <= i < num_record_batches()), checked against the schema.
  Result<BatchMessage> ReadRecordBatch(int i) const;

 private:
  FileReader() = default;
  Status Error(const std::string& what, int64_t at) const;
  Status ParseFooter();

  std::shared_ptr<Buffer> data_;
  std::string name_;
  MetadataVersion version_ = MetadataVersion::kV5;
  SchemaDesc schema_;
  KeyValueMetadata footer_metadata_;
  std::vector<FileBlock> dictionaries_;
  std::vector<FileBlock> record_batches_;
};

}  // namespace recflow::arrow_ipc
