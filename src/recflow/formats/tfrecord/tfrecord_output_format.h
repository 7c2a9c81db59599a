// TFRecord output: rows encoded as tf.Example / tf.SequenceExample / raw bytes, framed as TFRecords.
#pragma once

#include <memory>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/feature_columns.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/formats/output_format.h"

namespace recflow::tfrecord {

/// The "tfrecord" output format (suffix ".tfrecord"): each row becomes one record, its columns
/// the features example::FeatureColumns makes of them (`options`: how decimals are written),
/// serialized by example::Encoder for `type` and framed as record_writer.h frames it (length,
/// masked CRC32C of the length, data, masked CRC32C of the data). Fails as FeatureColumns::Make
/// and example::Encoder::Make do when `schema` cannot be written as `type` (TypeError naming the
/// column and its type, InvalidArgument). Encode errors carry the column (field) and the row
/// (record); a record over kMaxRecordLength is InvalidArgument.
Result<std::shared_ptr<const OutputFormat>> MakeTfrecordOutputFormat(
    SchemaPtr schema, example::RecordType type,
    const example::FeatureOptions& options = example::FeatureOptions::Defaults());

}  // namespace recflow::tfrecord
