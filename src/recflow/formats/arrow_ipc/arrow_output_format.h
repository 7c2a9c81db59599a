// convert's Arrow output: each data file an Arrow IPC stream (--to arrow) or file (--to feather).
#pragma once

#include <memory>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/formats/output_format.h"

namespace recflow::arrow_ipc {

/// The Arrow output format for rows of `schema`: every data file is an IPC stream (`.arrows`,
/// `file_format` false) or an IPC file / Feather v2 (`.feather`) holding one record batch per
/// run of rows the sink assigns to it, bodies compressed as `options` say. Dictionary columns
/// stay dictionary-encoded: each file carries the DictionaryBatch messages its batches need,
/// before their first use; when a run brings another dictionary, a delta if it extends the
/// file's, else a replacement (streams) or the new values unified into the file's dictionary
/// as a delta, the run's indices rewritten (files, which cannot replace a dictionary).
Result<std::shared_ptr<const OutputFormat>> MakeArrowOutputFormat(SchemaPtr schema, bool file_format,
                                                                  const IpcWriteOptions& options);

}  // namespace recflow::arrow_ipc
