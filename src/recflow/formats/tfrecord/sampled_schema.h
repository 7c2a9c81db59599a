// Inferring one tf.Example schema from a sample of records spread over several TFRecord files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/formats/tfrecord/record_reader.h"

namespace recflow::tfrecord {

/// The inferred schema and whether every record took part (a file cut short by its share makes
/// the sample partial).
struct SampledSchema {
  SchemaPtr schema;
  bool complete = true;
};

/// Opens the reader of file `index`.
using ReaderOpener = std::function<Result<std::unique_ptr<RecordReader>>(size_t index)>;

/// Observes up to `sample` records (INT64_MAX: all) of `num_files` files with
/// example::SchemaInferrer: from the start of each file in turn, an even share of the budget
/// left, so every file contributes even when the first ones are large. When the sample is
/// partial every column is nullable (a later record may lack any feature). A record that does not
/// decode is skipped when `skip_undecodable`, else a DataError naming the file, record and
/// offset. A fault of the reader (a DataError: bad framing, corrupt compressed data, a record
/// over the cap) ends that file's share, leaving the fault to the pass that reads the records
/// (which prints the records before it); the sample is then partial.
Result<SampledSchema> InferSampledSchema(size_t num_files, const ReaderOpener& open, example::RecordType type,
                                         int64_t sample, bool skip_undecodable);

}  // namespace recflow::tfrecord
