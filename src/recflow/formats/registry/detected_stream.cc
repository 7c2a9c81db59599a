// OpenDetectedStream: a file of a FileSystem (or standard input) under the decompressor of the sniffed codec.
#include "recflow/formats/registry/detected_stream.h"

#include "recflow/core/compression.h"

namespace recflow::formats {

Result<std::unique_ptr<InputStream>> OpenDetectedStream(FileSystem& fs, const FileToRead& file) {
  const Compression codec = ReadableCompression(file.detected.sniffed.codec).value_or(Compression::kNone);
  ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, OpenInputFile(fs, file.path));
  return MakeDecompressingStream(codec, std::move(in));
}

}  // namespace recflow::formats
