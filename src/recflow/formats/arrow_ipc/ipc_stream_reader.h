// IpcStreamReader: an Arrow IPC stream as recflow RecordBatches (dictionaries applied, bodies decompressed).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/buffer.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/batch_decoder.h"
#include "recflow/formats/arrow_ipc/ipc_read_options.h"
#include "recflow/formats/arrow_ipc/stream_reader.h"

namespace recflow::arrow_ipc {

/// Reads the record batches of an IPC stream in order. Dictionary batches are applied as they
/// come (replacement, or append for deltas); each record batch uses the dictionaries as they
/// stand when it is read. Batches from a buffer are zero-copy slices of it (kept alive by the
/// arrays); batches from an InputStream own their bodies.
class IpcStreamReader {
 public:
  /// Reads from a stream of messages (the schema message first); `options` (validated here)
  /// limit the decoding of every batch.
  static Result<std::unique_ptr<IpcStreamReader>> Open(std::unique_ptr<StreamReader> messages,
                                                       const IpcReadOptions& options = IpcReadOptions::Defaults());
  /// Reads from `in` (owned by the reader; its name appears in errors).
  static Result<std::unique_ptr<IpcStreamReader>> Open(std::unique_ptr<InputStream> in,
                                                       const IpcReadOptions& options = IpcReadOptions::Defaults());
  /// Reads from an in-memory stream without copying it.
  static Result<std::unique_ptr<IpcStreamReader>> Open(std::shared_ptr<Buffer> data, std::string name,
                                                       const IpcReadOptions& options = IpcReadOptions::Defaults());
  /// Reads file `path` of options.file_system ("-" is standard input) as a stream.
  static Result<std::unique_ptr<IpcStreamReader>> OpenFile(const std::string& path,
                                                           const IpcReadOptions& options = IpcReadOptions::Defaults());

  /// The stream's schema in recflow form.
  const SchemaPtr& schema() const { return schema_.converted.schema; }
  /// The schema as the stream describes it (byte order, dictionary ids).
  const DecodingSchema& decoding_schema() const { return schema_; }

  /// The next record batch; nullptr after the last one.
  Result<std::shared_ptr<RecordBatch>> Next();
  /// Record batches returned so far.
  int64_t num_batches_read() const { return batches_read_; }
  /// Bytes of the stream read so far: every message up to the last batch returned, the
  /// dictionary batches before it included.
  int64_t bytes_read() const { return messages_->position(); }
  /// The dictionaries as they stand after the messages read so far.
  const DictionaryMemo& dictionaries() const { return memo_; }

 private:
  IpcStreamReader(std::unique_ptr<StreamReader> messages, DecodingSchema schema, const IpcReadOptions& options)
      : messages_(std::move(messages)), schema_(std::move(schema)), options_(options) {}

  std::unique_ptr<StreamReader> messages_;
  DecodingSchema schema_;
  IpcReadOptions options_;
  DictionaryMemo memo_;
  int64_t batches_read_ = 0;
  int64_t dictionaries_read_ = 0;
};

}  // namespace recflow::arrow_ipc
