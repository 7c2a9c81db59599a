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
/// are refused (convert's sources produce none; their dictionaries would need per-file
/// dictionary batches).
Result<std::shared_ptr<const OutputFormat>> MakeArrowOutputFormat(SchemaPtr schema, bool file_format,
                                                                  const IpcWriteOptions& options);

}  // namespace recflow::arrow_ipc
