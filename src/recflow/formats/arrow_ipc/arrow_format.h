// The Arrow IPC format's registry entry: IPC files (Feather v2) and streams, read and written.
#pragma once

#include "recflow/core/result.h"
#include "recflow/formats/registry/format_registry.h"

namespace recflow::arrow_ipc {

/// Registers "arrow" (word "feather" too): reads Arrow IPC files and streams, current and
/// pre-0.15 (checked framing and Schema message, or an .arrow/.feather/.ipc/.arrows suffix),
/// uncompressed around (bodies carry their own codec), with the schema they carry. Writes IPC
/// streams ("arrow") and files ("feather"), bodies compressed with lz4 or zstd.
Status RegisterArrowFormat(formats::FormatRegistry* registry);

}  // namespace recflow::arrow_ipc
