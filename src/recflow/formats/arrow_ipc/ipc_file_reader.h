// IpcFileReader: random access to the record batches of an Arrow IPC file as recflow RecordBatches.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/buffer.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/batch_decoder.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_read_options.h"

namespace recflow::arrow_ipc {

/// Reads an IPC file: the footer and every dictionary batch at Open (in file order; deltas
/// append, a second non-delta batch for one id is a DataError as the file format forbids
/// replacement), then any record batch on demand. ReadBatch does not change the reader, so
/// several threads may call it at once. Batches are zero-copy slices of the file's bytes.
class IpcFileReader {
 public:
  /// Reads an in-memory file without copying it; `options` (validated here) limit the decoding
  /// of every dictionary and record batch.
  static Result<std::unique_ptr<IpcFileReader>> Open(std::shared_ptr<Buffer> data, std::string name,
                                                     const IpcReadOptions& options = IpcReadOptions::Defaults());
  /// Maps file `path` of options.file_system (FileSystem::MapFile: mmap on the local one).
  static Result<std::unique_ptr<IpcFileReader>> OpenFile(const std::string& path,
                                                         const IpcReadOptions& options = IpcReadOptions::Defaults());

  /// The file's schema (from the footer) in recflow form.
  const SchemaPtr& schema() const { return schema_.converted.schema; }
  /// The schema as the file describes it (byte order, dictionary ids).
  const DecodingSchema& decoding_schema() const { return schema_; }
  /// Record batches in the file.
  int num_batches() const { return file_->num_record_batches(); }
  /// Record batch `i`, 0 <= i < num_batches() (InvalidArgument otherwise).
  Result<std::shared_ptr<RecordBatch>> ReadBatch(int i) const;
  /// The footer and blocks.
  const FileReader& metadata() const { return *file_; }
  /// The dictionaries of the file.
  const DictionaryMemo& dictionaries() const { return memo_; }

 private:
  IpcFileReader(std::unique_ptr<FileReader> file, DecodingSchema schema, const IpcReadOptions& options)
      : file_(std::move(file)), schema_(std::move(schema)), options_(options) {}
  Status ReadDictionaries();

  std::unique_ptr<FileReader> file_;
  DecodingSchema schema_;
  IpcReadOptions options_;
  DictionaryMemo memo_;
};

}  // namespace recflow::arrow_ipc
