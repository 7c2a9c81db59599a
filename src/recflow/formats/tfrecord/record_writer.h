// RecordWriter: writes TFRecord framing (length, CRCs) uncompressed or through GZIP / ZLIB.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "recflow/core/compression.h"
#include "recflow/core/filesystem.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"

namespace recflow::tfrecord {

/// How a RecordWriter encodes its output.
struct WriterOptions {
  /// The codec; the writer never guesses it from the path (see CompressionFromSuffix).
  Compression compression = Compression::kNone;
  /// zlib compression level 0..9, or -1 for the codec's default.
  int level = -1;

  /// Uncompressed.
  static WriterOptions Defaults() { return {}; }
  /// Checks the codec and the level.
  Status Validate() const;
};

/// Appends records to a TFRecord output. Close() must be called to learn whether the output is
/// complete; the destructor closes too but cannot report errors.
class RecordWriter {
 public:
  /// Creates or truncates file `path` of `fs`.
  static Result<std::unique_ptr<RecordWriter>> Open(const std::string& path, const WriterOptions& options,
                                                    FileSystem& fs);
  /// Writes into `out`, which the writer owns and closes.
  static Result<std::unique_ptr<RecordWriter>> Make(std::unique_ptr<OutputStream> out, const WriterOptions& options);

  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  /// Appends one record (length, masked length CRC, data, masked data CRC).
  Status Write(std::string_view record);
  /// Flushes, finishes the compressed stream and closes the output. Idempotent.
  Status Close();

  /// Records written so far.
  int64_t records_written() const { return records_written_; }
  /// Uncompressed bytes written so far, framing included.
  int64_t bytes_written() const { return bytes_written_; }

 private:
  explicit RecordWriter(std::unique_ptr<OutputStream> out) : out_(std::move(out)) {}

  std::unique_ptr<OutputStream> out_;
  bool closed_ = false;
  int64_t records_written_ = 0;
  int64_t bytes_written_ = 0;
};

}  // namespace recflow::tfrecord
