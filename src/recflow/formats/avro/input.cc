// OpenAvroInput: options check, container header, writer schema → RecordDecoder.
#include "recflow/formats/avro/input_internal.h"

#include <utility>

namespace recflow::avro {

Result<AvroInput> OpenAvroInput(std::unique_ptr<InputStream> in, const ReadOptions& options) {
  RETURN_NOT_OK(options.Validate());
  AvroInput input;
  ASSIGN_OR_RETURN(input.container, ContainerReader::Open(std::move(in), options.max_block_bytes));
  auto decoder = RecordDecoder::Make(input.container->header().schema_json);
  if (!decoder.ok()) {
    return decoder.status().WithFile(input.container->name()).WithOffset(input.container->header().schema_offset);
  }
  input.decoder = *std::move(decoder);
  return input;
}

Result<AvroInput> OpenAvroFile(const std::string& path, const ReadOptions& options) {
  RETURN_NOT_OK(options.Validate());
  ASSIGN_OR_RETURN(std::unique_ptr<InputStream> file, OpenInputFile(*options.file_system, path));
  return OpenAvroInput(std::move(file), options);
}

}  // namespace recflow::avro
