// ContainerReader: the header and the framed blocks of an Avro object container file, read from a stream.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "recflow/core/buffer.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/avro/block_codec_internal.h"
#include "recflow/formats/avro/framing.h"

namespace recflow::avro {

/// What the header says.
struct ContainerHeader {
  /// The writer schema's JSON text (avro.schema).
  std::string schema_json;
  /// Input byte offset of the avro.schema metadata entry (for schema errors).
  int64_t schema_offset = 0;
  /// The block codec (avro.codec).
  BlockCodec codec = BlockCodec::kNull;
  /// The marker after the header and after every block.
  std::array<uint8_t, kSyncSize> sync{};
  /// Bytes of the header, its sync marker included: the offset of the first block.
  int64_t size = 0;
};

/// One block as stored: framing checked, data not yet decompressed or decoded.
struct RawBlock {
  /// Input byte offset of the block (its record count).
  int64_t offset = 0;
  /// Input byte offset of data[0].
  int64_t data_offset = 0;
  /// Records in the block (non-negative; not yet checked against the data).
  int64_t count = 0;
  /// The block's data as stored (compressed by the header's codec).
  std::shared_ptr<Buffer> data;
  /// Input bytes the block took, framing and sync marker included.
  int64_t input_bytes = 0;
};

/// Reads the header on Open, then one block per Next(). Lengths read from the input are checked
/// against limits before anything is allocated, and buffers grow only as bytes actually arrive,
/// so a truncated file that claims a huge block costs no more than its own size. Memory: one
/// block. Errors are DataErrors with the input's name and the byte offset of the bad part.
class ContainerReader {
 public:
  /// Reads the header from `in`: magic, metadata map (schema and codec), sync marker.
  /// `max_block_bytes` bounds a block's stored size.
  static Result<std::unique_ptr<ContainerReader>> Open(std::unique_ptr<InputStream> in, int64_t max_block_bytes);

  /// The header.
  const ContainerHeader& header() const { return header_; }
  /// The input's name for messages.
  const std::string& name() const { return in_->name(); }
  /// The next block, or nullopt at the clean end of the input. A truncated block, a negative
  /// count or size, a size over the limit or a wrong sync marker is a DataError.
  Result<std::optional<RawBlock>> Next();
  /// After an error from Next(): moves to just past the next sync marker after the start of
  /// the failed block, so Next() reads the block after it. Returns false (at the end of the
  /// input) when there is none. Returns the input byte offset it resumed at through *resumed.
  Result<bool> Resync(int64_t* resumed);

 private:
  ContainerReader(std::unique_ptr<InputStream> in, int64_t max_block_bytes)
      : in_(std::move(in)), max_block_bytes_(max_block_bytes) {}
  Status ReadHeader();
  Result<RawBlock> ReadBlock();
  Status ReadMetadataEntry();
  // Buffers at least `n` bytes after pos_ when the input has them; returns how many are buffered.
  Result<int64_t> Fill(int64_t n);
  Status ReadLong(int64_t* out);
  Status ReadExact(int64_t n, BufferBuilder* out);
  Status ReadString(int64_t max_length, std::string* out);
  int64_t offset() const { return buffer_offset_ + pos_; }
  Status Error(int64_t at, const std::string& message) const;

  std::unique_ptr<InputStream> in_;
  int64_t max_block_bytes_;
  ContainerHeader header_;
  std::string buffer_;        // bytes read from in_ and not yet consumed from pos_ on
  int64_t pos_ = 0;           // read position in buffer_
  int64_t buffer_offset_ = 0; // input offset of buffer_[0]
  bool at_end_ = false;       // in_ returned 0
  int64_t keep_from_ = -1;    // while reading a block: buffer_ index of its start, kept by Fill
};

}  // namespace recflow::avro
