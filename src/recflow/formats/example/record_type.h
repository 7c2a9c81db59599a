// Record types of TFRecord payloads (tf.Example, tf.SequenceExample, raw bytes) and the schema metadata that places a column in a SequenceExample.
#pragma once

#include <cstdint>
#include <string_view>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::example {

/// What one TFRecord payload holds (spark-tfrecord's `recordType`).
enum class RecordType : uint8_t { kExample, kSequenceExample, kByteArray };

/// "example", "sequence-example" or "bytes".
std::string_view RecordTypeName(RecordType type);

/// Parses "example", "sequence-example" (or "sequence_example"), "bytes" and spark-tfrecord's spellings "Example",
/// "SequenceExample", "ByteArray" (case-insensitive). Anything else is InvalidArgument.
Result<RecordType> ParseRecordType(std::string_view name);

/// Field metadata key saying where a column lives in a SequenceExample.
inline constexpr std::string_view kKindMetadataKey = "tfrecord.kind";
/// Value of kKindMetadataKey: the column is a feature of the SequenceExample's `context`.
inline constexpr std::string_view kKindContext = "context";
/// Value of kKindMetadataKey: the column is a FeatureList of `feature_lists` (list<list<T>>).
inline constexpr std::string_view kKindFeatureList = "feature_list";

/// Name of the single binary column of the ByteArray record type (as spark-tfrecord names it).
inline constexpr std::string_view kByteArrayColumn = "byteArray";

/// True when `field` is a feature list of a SequenceExample: its kKindMetadataKey says so, or,
/// without that metadata, its type is list<list<T>>. An unknown metadata value is
/// InvalidArgument naming the field.
Result<bool> IsFeatureListField(const Field& field);

/// The schema of the ByteArray record type: one non-null binary column "byteArray".
SchemaPtr ByteArraySchema();

}  // namespace recflow::example
