// OpenDetectedStream: a detected input file as a stream of its bytes, decompressed with the codec its content showed.
#pragma once

#include <memory>

#include "recflow/core/filesystem.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/registry/format_descriptor.h"

namespace recflow::formats {

/// `file` ("-" = standard input) opened on `fs` (OpenInputFile) and wrapped in the decompressor of the codec detection
/// found in it (none when it found none): how the text formats read a file.
Result<std::unique_ptr<InputStream>> OpenDetectedStream(FileSystem& fs, const FileToRead& file);

}  // namespace recflow::formats
