// IpcWriter: record batches as an Arrow IPC stream or file (Feather v2), optionally LZ4/ZSTD-compressed.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"

namespace recflow::arrow_ipc {

/// How an IpcWriter encodes bodies.
struct IpcWriteOptions {
  /// Body compression: per buffer, LZ4 frames or Zstandard (each buffer stays uncompressed when
  /// compression would not make it smaller, as the format allows).
  enum class Compression : uint8_t { kNone, kLz4Frame, kZstd };
  Compression compression = Compression::kNone;
  /// The codec's level; 0 = its default.
  int level = 0;

  /// Uncompressed.
  static IpcWriteOptions Defaults() { return {}; }
  /// Checks the level range of the codec.
  Status Validate() const;
};

/// Parses "none", "lz4" (or "lz4_frame") and "zstd".
Result<IpcWriteOptions::Compression> ParseIpcCompression(std::string_view name);

/// Writes one schema and then batches of it, as the Arrow IPC stream format (encapsulated
/// messages with the continuation marker, metadata version V5, ended by the end-of-stream
/// marker) or the file format (the `ARROW1` magic, the same stream, a footer with the schema
/// and every dictionary and record batch block, the footer length and the magic). Dictionary
/// columns get a DictionaryBatch before the first batch that uses them; when a batch brings a
/// different dictionary, a delta if it extends the one written (same values first), else a
/// replacement. The file format refuses a replacement, which it cannot represent
/// (InvalidArgument; the writer stays usable).
class IpcWriter {
 public:
  /// Starts a stream on `out` (borrowed; it must outlive the writer) with the schema message.
  static Result<std::unique_ptr<IpcWriter>> OpenStream(OutputStream* out, SchemaPtr schema,
                                                       const IpcWriteOptions& options);
  /// Starts a file on `out` (written from its current position, taken as the file start).
  static Result<std::unique_ptr<IpcWriter>> OpenFile(OutputStream* out, SchemaPtr schema,
                                                     const IpcWriteOptions& options);
  ~IpcWriter();
  IpcWriter(const IpcWriter&) = delete;
  IpcWriter& operator=(const IpcWriter&) = delete;

  /// Writes `batch`, whose schema must equal the writer's (its dictionaries first, if new).
  Status Write(const RecordBatch& batch);
  /// Ends the stream (and writes the file footer); does not close `out`.
  Status Finish();

  /// Bytes written so far.
  int64_t bytes_written() const;

 private:
  struct State;
  explicit IpcWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace recflow::arrow_ipc
