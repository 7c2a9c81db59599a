// BatchMessage: a dictionary or record batch message with its header checked against the schema.
#pragma once

#include <optional>

#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/batch_desc.h"
#include "recflow/formats/arrow_ipc/batch_layout.h"
#include "recflow/formats/arrow_ipc/message.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc {

/// One dictionary batch or record batch of a stream or file. Exactly one of `dictionary` and
/// `record_batch` is set.
struct BatchMessage {
  Message message;
  std::optional<DictionaryBatchDesc> dictionary;
  std::optional<RecordBatchDesc> record_batch;
  /// The node and buffer layout the header was checked against.
  BatchLayout layout;
};

/// Reads the header of `message` and checks it against `schema`: a record batch must carry the
/// nodes and buffers of all fields, a dictionary batch those of the values of a dictionary
/// the schema uses. Schema and tensor messages, and metadata versions before V4 (Arrow 0.8),
/// are DataErrors.
Result<BatchMessage> DescribeBatchMessage(const SchemaDesc& schema, Message message);

}  // namespace recflow::arrow_ipc
