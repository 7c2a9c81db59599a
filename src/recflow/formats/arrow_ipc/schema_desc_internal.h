// Conversion of a verified Schema flatbuffer table to a SchemaDesc (shared by messages and the file footer).
#pragma once

#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/flatbuf_internal.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc {

/// Converts `schema` (from a verified flatbuffer; may be null, which is a DataError).
Result<SchemaDesc> SchemaFromFlatbuffer(const fb::Schema* schema, const ErrorSite& site);

}  // namespace recflow::arrow_ipc
