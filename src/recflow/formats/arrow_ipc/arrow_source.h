// Arrow IPC files and streams as a pipeline Source: one unit per record batch.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/ipc_read_options.h"
#include "recflow/formats/sniff.h"
#include "recflow/formats/source.h"

namespace recflow::arrow_ipc {

/// Opens `path` ("-" = standard input) as a Source, as what its content was sniffed to be
/// (formats::SniffFile; the head a pipe's sniffing kept is read again, not lost), from
/// options.file_system: an IPC file (kArrowFile) is mapped (FileSystem::MapFile) and its
/// batches are decoded by their units, in parallel; on standard input or a pipe it is an
/// InvalidArgument error (a file needs random access).
/// Anything else is read as a stream, whose batches are decoded in order as units are taken.
/// The schema is the file's or stream's. A unit's input bytes are the messages read for it: its
/// record batch and the dictionary batches before it (in a file, the first unit counts every
/// dictionary batch, all read at open).
Result<std::unique_ptr<Source>> OpenArrowSource(const std::string& path, formats::ContentKind content,
                                                const IpcReadOptions& options = IpcReadOptions::Defaults());

/// Opens the record batches [first, end) of the Arrow IPC file `data` (the bytes of `path`, mapped
/// or in memory; every dictionary batch is read, as the footer lists them). InvalidArgument when
/// the range is not within the file's batches.
Result<std::unique_ptr<Source>> OpenArrowFileBatches(std::shared_ptr<Buffer> data, const std::string& path, int64_t first,
                                                     int64_t end, const IpcReadOptions& options);

}  // namespace recflow::arrow_ipc
