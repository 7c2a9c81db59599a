// ContainerReader: buffered reads of the container header and blocks, checked lengths, sync-marker resync.
#include "recflow/formats/avro/container_reader_internal.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>

#include "recflow/formats/avro/binary_cursor_internal.h"

namespace recflow::avro {
namespace {

// Bytes read from the input at a time (and the most a claimed length grows a buffer ahead of
// the bytes that actually arrived).
constexpr int64_t kReadChunk = int64_t{1} << 20;

}  // namespace

Result<std::unique_ptr<ContainerReader>> ContainerReader::Open(std::unique_ptr<InputStream> in,
                                                               int64_t max_block_bytes) {
  std::unique_ptr<ContainerReader> reader(new ContainerReader(std::move(in), max_block_bytes));
  Status st = reader->ReadHeader();
  if (!st.ok()) return st.WithFile(reader->name());
  return reader;
}

Status ContainerReader::Error(int64_t at, const std::string& message) const {
  return Status::DataError("avro container: " + message).WithFile(name()).WithOffset(at);
}

Result<int64_t> ContainerReader::Fill(int64_t n) {
  auto buffered = [this] { return static_cast<int64_t>(buffer_.size()) - pos_; };
  if (buffered() >= n || at_end_) return buffered();
  // Drop consumed bytes before growing, except those of the block being read.
  const int64_t drop = keep_from_ >= 0 ? std::min(pos_, keep_from_) : pos_;
  if (drop > 0) {
    buffer_.erase(0, static_cast<size_t>(drop));
    buffer_offset_ += drop;
    pos_ -= drop;
    if (keep_from_ >= 0) keep_from_ -= drop;
  }
  while (buffered() < n && !at_end_) {
    const int64_t want = std::max(kReadChunk / 16, std::min(kReadChunk, n - buffered()));
    const size_t old_size = buffer_.size();
    buffer_.resize(old_size + static_cast<size_t>(want));
    ASSIGN_OR_RETURN(const int64_t got, ReadFully(*in_, buffer_.data() + old_size, want));
    buffer_.resize(old_size + static_cast<size_t>(got));
    if (got < want) at_end_ = true;
  }
  return buffered();
}

Status ContainerReader::ReadLong(int64_t* out) {
  ASSIGN_OR_RETURN(const int64_t available, Fill(kMaxVarintBytes));
  BinaryCursor cursor(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(buffer_.data()) + pos_,
                                               static_cast<size_t>(available)),
                      offset());
  RETURN_NOT_OK(cursor.ReadLong(out));
  pos_ += cursor.position();
  return Status::OK();
}

Status ContainerReader::ReadExact(int64_t n, BufferBuilder* out) {
  const int64_t start = offset();
  while (n > 0) {
    ASSIGN_OR_RETURN(const int64_t available, Fill(std::min(n, kReadChunk)));
    if (available == 0) return Error(start, "truncated (" + std::to_string(n) + " more bytes expected)");
    const int64_t take = std::min(n, available);
    RETURN_NOT_OK(out->Append(buffer_.data() + pos_, take));
    pos_ += take;
    n -= take;
  }
  return Status::OK();
}

Status ContainerReader::ReadString(int64_t max_length, std::string* out) {
  const int64_t start = offset();
  int64_t length = 0;
  RETURN_NOT_OK(ReadLong(&length));
  if (length < 0 || length > max_length) return Error(start, "bad length " + std::to_string(length));
  BufferBuilder bytes;
  RETURN_NOT_OK(ReadExact(length, &bytes));
  out->assign(reinterpret_cast<const char*>(bytes.data()), static_cast<size_t>(bytes.size()));
  return Status::OK();
}

Status ContainerReader::ReadMetadataEntry() {
  const int64_t start = offset();
  std::string key, value;
  RETURN_NOT_OK(ReadString(kMaxMetadataValueBytes, &key));
  RETURN_NOT_OK(ReadString(kMaxMetadataValueBytes, &value));
  if (key == kSchemaMetadataKey) {
    header_.schema_json = std::move(value);
    header_.schema_offset = start;
  } else if (key == kCodecMetadataKey) {
    auto codec = ParseBlockCodec(value);
    if (!codec.ok()) return codec.status().WithOffset(start);
    header_.codec = *codec;
  }
  return Status::OK();
}

Status ContainerReader::ReadHeader() {
  ASSIGN_OR_RETURN(const int64_t available, Fill(static_cast<int64_t>(kMagic.size())));
  if (available < static_cast<int64_t>(kMagic.size()) ||
      std::string_view(buffer_).substr(0, kMagic.size()) != kMagic) {
    return Error(0, "not an Avro object container file (no 'Obj\\x01' magic)");
  }
  pos_ += static_cast<int64_t>(kMagic.size());
  for (;;) {
    const int64_t start = offset();
    int64_t count = 0;
    RETURN_NOT_OK(ReadLong(&count));
    if (count == 0) break;
    if (count < 0) {
      int64_t byte_size = 0;
      RETURN_NOT_OK(ReadLong(&byte_size));
      if (count == INT64_MIN || byte_size < 0) return Error(start, "bad metadata block");
      count = -count;
    }
    for (int64_t i = 0; i < count; ++i) RETURN_NOT_OK(ReadMetadataEntry());
  }
  if (header_.schema_json.empty()) return Error(offset(), "no avro.schema in the header");
  BufferBuilder sync;
  RETURN_NOT_OK(ReadExact(kSyncSize, &sync));
  std::memcpy(header_.sync.data(), sync.data(), kSyncSize);
  header_.size = offset();
  return Status::OK();
}

Result<std::optional<RawBlock>> ContainerReader::Next() {
  ASSIGN_OR_RETURN(const int64_t available, Fill(1));
  if (available == 0) return std::optional<RawBlock>();
  keep_from_ = pos_;
  auto block = ReadBlock();
  if (!block.ok()) pos_ = keep_from_ + 1;  // a resync searches from just after the block's start
  keep_from_ = -1;
  if (!block.ok()) return block.status();
  return std::optional<RawBlock>(*std::move(block));
}

Result<RawBlock> ContainerReader::ReadBlock() {
  RawBlock block;
  block.offset = offset();
  RETURN_NOT_OK(ReadLong(&block.count));
  if (block.count < 0) return Error(block.offset, "negative block record count " + std::to_string(block.count));
  int64_t size = 0;
  const int64_t size_offset = offset();
  RETURN_NOT_OK(ReadLong(&size));
  if (size < 0 || size > max_block_bytes_) {
    return Error(size_offset, "block size " + std::to_string(size) + " outside [0, " +
                                  std::to_string(max_block_bytes_) + "] (ReadOptions::max_block_bytes)");
  }
  block.data_offset = offset();
  BufferBuilder data;
  RETURN_NOT_OK(ReadExact(size, &data));
  block.data = data.Finish();
  const int64_t sync_offset = offset();
  BufferBuilder sync;
  RETURN_NOT_OK(ReadExact(kSyncSize, &sync));
  if (std::memcmp(sync.data(), header_.sync.data(), kSyncSize) != 0) {
    return Error(sync_offset, "wrong sync marker after the block at byte offset " + std::to_string(block.offset));
  }
  block.input_bytes = offset() - block.offset;
  return block;
}

Result<bool> ContainerReader::Resync(int64_t* resumed) {
  const std::string_view marker(reinterpret_cast<const char*>(header_.sync.data()), kSyncSize);
  for (;;) {
    ASSIGN_OR_RETURN(const int64_t available, Fill(kReadChunk));
    const size_t found = std::string_view(buffer_).substr(static_cast<size_t>(pos_)).find(marker);
    if (found != std::string_view::npos) {
      pos_ += static_cast<int64_t>(found) + kSyncSize;
      *resumed = offset();
      return true;
    }
    if (at_end_) {
      pos_ = static_cast<int64_t>(buffer_.size());
      *resumed = offset();
      return false;
    }
    pos_ += std::max<int64_t>(0, available - (kSyncSize - 1));  // keep a possible marker prefix
  }
}

}  // namespace recflow::avro
