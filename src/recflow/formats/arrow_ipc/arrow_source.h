// Arrow IPC files and streams as a pipeline Source: one unit per record batch.
#pragma once

#include <memory>
#include <string>

#include "recflow/core/result.h"
#include "recflow/formats/source.h"

namespace recflow::arrow_ipc {

/// Opens `path` ("-" = standard input) as a Source: an IPC file (it starts with `ARROW1`) is
/// memory-mapped and its batches are decoded by their units, in parallel; a stream's batches are
/// decoded in order as units are taken. The schema is the file's or stream's. A unit's input
/// bytes are the messages read for it: its record batch and the dictionary batches before it
/// (in a file, the first unit counts every dictionary batch, all read at open).
Result<std::unique_ptr<Source>> OpenArrowSource(const std::string& path);

}  // namespace recflow::arrow_ipc
