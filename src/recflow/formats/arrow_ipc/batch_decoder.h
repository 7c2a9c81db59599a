// Decoding of checked batch messages: record batches into recflow RecordBatches, dictionary batches into a DictionaryMemo.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/batch_message.h"
#include "recflow/formats/arrow_ipc/dictionary_memo.h"
#include "recflow/formats/arrow_ipc/ipc_read_options.h"
#include "recflow/formats/arrow_ipc/schema_convert.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc {

/// A schema in both forms, as the decoders need it.
struct DecodingSchema {
  /// The IPC description (byte order, dictionary ids, the fields' layouts).
  SchemaDesc desc;
  /// Its recflow form.
  ConvertedSchema converted;

  /// Converts `desc` (ConvertSchema); errors name `source_name` and `offset` (of the schema
  /// message or the footer).
  static Result<DecodingSchema> Make(SchemaDesc desc, const std::string& source_name, int64_t offset);
};

/// Decodes the record batch `batch` (batch.record_batch set, header checked against the
/// schema by DescribeBatchMessage): its arrays are zero-copy slices of the message body,
/// except for buffers that are misaligned for their values (copied), compressed
/// (decompressed) or big-endian (swapped). The batch passes RecordBatch::ValidateFull; any
/// problem is a DataError naming the input, the message offset and "record batch
/// `batch_index`", including compressed buffers declaring more than
/// `options.max_decompressed_batch_bytes` (refused before anything is decompressed).
Result<std::shared_ptr<RecordBatch>> DecodeRecordBatch(const DecodingSchema& schema, const BatchMessage& batch,
                                                       const DictionaryMemo& memo, int64_t batch_index,
                                                       const IpcReadOptions& options = IpcReadOptions::Defaults());

/// Decodes the dictionary batch `batch` (batch.dictionary set) and replaces or extends
/// (isDelta) its id's values in `memo`. The values pass ValidateFull; errors name the input,
/// the message offset and "dictionary batch `dictionary_index`"; `options` limits it as for
/// DecodeRecordBatch.
Status ApplyDictionaryBatch(const DecodingSchema& schema, const BatchMessage& batch, DictionaryMemo& memo,
                            int64_t dictionary_index, const IpcReadOptions& options = IpcReadOptions::Defaults());

}  // namespace recflow::arrow_ipc
