// RecordReader: reads TFRecord files, buffers and streams (uncompressed, GZIP, ZLIB), CRC-checked.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/buffer.h"
#include "recflow/core/compression.h"
#include "recflow/core/io.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"

namespace recflow::tfrecord {

/// The default of ReaderOptions::max_record_bytes: 1 GiB.
inline constexpr int64_t kDefaultMaxRecordBytes = int64_t{1} << 30;

/// How a RecordReader interprets its input.
struct ReaderOptions {
  /// The codec used when `compression_auto` is false.
  Compression compression = Compression::kNone;
  /// Detect the codec from the first bytes with formats::Sniff, the detector every command
  /// uses, with the TFRecord content check (the name's suffix alone does not make a codec; zlib
  /// needs a head that inflates).
  bool compression_auto = true;
  /// Check each record's data CRC (length CRCs are always checked).
  bool verify_crc = true;
  /// Count and report corrupt records, resynchronise on the next valid record and go on,
  /// instead of failing on the first fault.
  bool skip_corrupt = false;
  /// The reader's memory cap: the largest record it returns (a record announcing more is a
  /// DataError naming the cap, never skipped as corrupt). The CLI's --max-record-bytes and the
  /// read step's max_record_bytes set it.
  int64_t max_record_bytes = kDefaultMaxRecordBytes;
  /// Where Open() finds its file ("-", standard input, is always the process's own).
  std::shared_ptr<FileSystem> file_system = LocalFileSystem::Instance();

  /// Auto-detected compression, CRCs verified, fail on the first fault, 1 GiB records, local files.
  static ReaderOptions Defaults() { return {}; }
  /// Checks that `compression` is a known codec, the cap is positive and there is a file system.
  Status Validate() const;
};

/// Reads TFRecord records front to back. Uncompressed files and buffers are read in place
/// (memory-mapped, zero-copy); compressed inputs are decompressed whole when small and their
/// first record header checks out, otherwise streamed through a window that grows only with
/// the largest record (at most max_record_bytes). Every fault is a DataError naming the input,
/// the record index and the byte offset (in the decompressed stream) of the record's header;
/// see docs/formats/tfrecord.md.
class RecordReader {
 public:
  /// The number of problems kept for problems() when skipping corrupt records.
  static constexpr size_t kMaxKeptProblems = 16;

  /// Opens a file on options.file_system (its codec sniffed from its first bytes unless set):
  /// a regular file is mapped whole (FileSystem::MapFile: mmap on the local file system) and
  /// read in place; anything else (a pipe) is streamed. "-" = stdin.
  static Result<std::unique_ptr<RecordReader>> Open(const std::string& path, const ReaderOptions& options);
  /// Reads records from memory (zero-copy for uncompressed input). `name` appears in errors.
  static Result<std::unique_ptr<RecordReader>> FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                          const ReaderOptions& options);
  /// Reads the records of an uncompressed TFRecord file held in `data` (a mapped file) whose
  /// headers start in [begin, end): from the first whole valid record at or after `begin`
  /// (FindRecordStart, data CRC checked whatever verify_crc says; at 0 when `begin` is 0) up
  /// to the first record whose header starts at or after `end` — the last may end beyond
  /// `end`. Where the last ends there must be a whole valid record or the end of `data`, else
  /// that fault is this range's error (unless skip_corrupt): the next range, which looks for
  /// its first record, would silently pass over it. Offsets in errors are
  /// offsets in `data`; record indices count from the first record read. InvalidArgument
  /// unless 0 <= begin <= end.
  static Result<std::unique_ptr<RecordReader>> FromBufferRange(std::shared_ptr<Buffer> data, std::string name,
                                                               int64_t begin, int64_t end,
                                                               const ReaderOptions& options);
  /// Reads records from a stream (pipes, sockets); memory stays bounded by the largest record.
  /// The stream's name() appears in errors. Detecting the codec reads the stream's head as
  /// formats::ReadSniffHead does (only until Sniff has decided).
  static Result<std::unique_ptr<RecordReader>> FromStream(std::unique_ptr<InputStream> in,
                                                          const ReaderOptions& options);

  ~RecordReader();
  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;

  /// Next record; false at end. The view stays valid until the next call (for in-memory input,
  /// as long as the reader lives). After an error, every further call returns the same error.
  Result<bool> Next(std::string_view* record);

  /// Index of the record last returned (-1 before the first); counts good records only.
  int64_t record_index() const { return records_returned_ - 1; }
  /// Byte offset (in the decompressed stream) of the header of the record last returned.
  int64_t record_offset() const { return record_offset_; }
  /// Corrupt regions skipped (with skip_corrupt); a truncated tail counts as one.
  int64_t corrupt_records() const { return corrupt_records_; }
  /// Bytes skipped while resynchronising (with skip_corrupt).
  int64_t skipped_bytes() const { return skipped_bytes_; }
  /// The first kMaxKeptProblems faults skipped, each a DataError with file, record and offset.
  const std::vector<Status>& problems() const { return problems_; }
  /// The codec the input was read with.
  Compression compression() const { return compression_; }
  /// The path or name given when opening (used in error messages).
  const std::string& name() const { return name_; }
  /// Decompressed bytes consumed so far (records, framing and skipped bytes).
  int64_t bytes_read() const { return window_origin_ + pos_; }
  /// The whole input when it is read in place (an uncompressed file or buffer): every record
  /// Next returns is a view into it, valid as long as the buffer lives. Null for streamed input,
  /// whose views last only until the next call.
  const std::shared_ptr<Buffer>& whole_input() const { return whole_; }

 private:
  enum class Fault : uint8_t;

  RecordReader(std::string name, Compression compression, const ReaderOptions& options);
  /// Uses `data` as the whole (decompressed) input.
  void SetWholeInput(std::shared_ptr<Buffer> data);
  /// Streams from `in`, whose first bytes `head` were already read.
  void SetStreamInput(std::unique_ptr<InputStream> in, std::span<const uint8_t> head);
  /// Makes at least `need` bytes available at pos_ unless the stream ends first.
  Status Refill(int64_t need);
  /// The DataError for a fault of the record whose header is at pos_.
  Status FaultStatus(Fault fault, uint64_t length) const;
  /// Handles a fault at pos_: returns it, or records it and resynchronises.
  Status OnFault(Fault fault, uint64_t length);
  /// `st` (an error of the decompressor met while reading or skipping) with the first fault
  /// skipped before it, else `current` (the fault being skipped), noted in its message.
  Status WithFirstFault(const Status& st, const Status& current) const;
  /// The sticky error for a record at pos_ whose `length` exceeds max_record_bytes_.
  Status OverCap(uint64_t length);
  /// At or past limit_: false when pos_ holds a whole valid record (the next range's first) or
  /// the end; otherwise the fault there (the next range would skip it while looking for a
  /// record start), unless skip_corrupt.
  Result<bool> AtLimit();
  /// Scans forward from pos_ + 1 for the next offset holding a whole valid record.
  Status Resync();

  std::string name_;
  Compression compression_;
  bool verify_crc_;
  bool skip_corrupt_;
  int64_t max_record_bytes_;

  // The bytes being parsed: the whole input, or the stream window.
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;
  int64_t window_origin_ = 0;  // stream offset of data_[0]
  int64_t limit_ = INT64_MAX;  // no record whose header starts at data_[limit_] or later is read (whole inputs)
  bool at_end_ = true;         // no bytes beyond data_ + size_

  std::shared_ptr<Buffer> whole_;             // keeps in-memory input alive
  std::unique_ptr<InputStream> stream_;       // streamed input
  std::unique_ptr<uint8_t[]> window_;         // stream window storage
  int64_t window_capacity_ = 0;

  int64_t records_returned_ = 0;
  int64_t record_offset_ = -1;
  int64_t corrupt_records_ = 0;
  int64_t skipped_bytes_ = 0;
  std::vector<Status> problems_;
  Status error_;  // sticky after a failure
};

}  // namespace recflow::tfrecord
