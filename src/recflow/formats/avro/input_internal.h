// OpenAvroInput: the container reader and the record decoder of one input, shared by AvroReader and the Source.
#pragma once

#include <memory>

#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/avro/container_reader_internal.h"
#include "recflow/formats/avro/read_options.h"
#include "recflow/formats/avro/record_decoder_internal.h"

namespace recflow::avro {

/// An opened container: its header read, its schema mapped and compiled.
struct AvroInput {
  std::unique_ptr<ContainerReader> container;
  std::shared_ptr<const RecordDecoder> decoder;
};

/// Reads the header of `in` and compiles its writer schema. DataError (with the input's name
/// and byte offset) for a bad header or schema text, TypeError for a schema recflow cannot
/// represent, InvalidArgument for bad options.
Result<AvroInput> OpenAvroInput(std::unique_ptr<InputStream> in, const ReadOptions& options);

/// Opens the local file `path` ("-" is standard input) with OpenAvroInput.
Result<AvroInput> OpenAvroFile(const std::string& path, const ReadOptions& options);

}  // namespace recflow::avro
