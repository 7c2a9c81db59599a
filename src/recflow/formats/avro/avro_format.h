// The Avro format's registry entry: object container files read with their own schema.
#pragma once

#include "recflow/core/result.h"
#include "recflow/formats/registry/format_registry.h"

namespace recflow::avro {

/// Registers "avro": reads Avro object container files (magic Obj 01, or an .avro suffix),
/// uncompressed around (their blocks carry their own codec), with the schema they carry.
/// recflow does not write Avro.
Status RegisterAvroFormat(formats::FormatRegistry* registry);

}  // namespace recflow::avro
