// TFRecord output: rows encoded as tf.Example / tf.SequenceExample / raw bytes, framed as TFRecords.
#pragma once

#include <memory>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/formats/output_format.h"

namespace recflow::tfrecord {

/// The "tfrecord" output format (suffix ".tfrecord"): each row becomes one record, serialized by
/// example::Encoder for `type` and framed as record_writer.h frames it (length, masked CRC32C
/// of the length, data, masked CRC32C of the data). Fails as example::Encoder::Make does when
/// `schema` cannot be written as `type` (TypeError, InvalidArgument). Encode errors carry the
/// column (field) and the row (record); a record over kMaxRecordLength is InvalidArgument.
Result<std::shared_ptr<const OutputFormat>> MakeTfrecordOutputFormat(SchemaPtr schema, example::RecordType type);

}  // namespace recflow::tfrecord
