// TFRecord as a pipeline Source: framed records read and CRC-checked in order, decoded from
// tf.Example / SequenceExample / raw bytes into columns in parallel.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/core/result.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/formats/source.h"
#include "recflow/formats/tfrecord/record_reader.h"

namespace recflow::tfrecord {

/// How a TFRecord source reads.
struct SourceOptions {
  /// Framing, compression and CRC policy.
  ReaderOptions reader = ReaderOptions::Defaults();
  /// What each record holds.
  example::RecordType record_type = example::RecordType::kExample;
  /// The columns to decode; null = inferred from the first `inference_records` records.
  SchemaPtr schema;
  /// Types of single columns that override inference (ApplySchemaHints, `--schema-hint`);
  /// ignored when `schema` is set.
  SchemaPtr type_hints;
  /// Records observed for inference (they are kept in memory and decoded first).
  int64_t inference_records = 10000;
  /// Record bytes gathered per unit.
  int64_t unit_bytes = int64_t{4} << 20;
  /// Leave out records that do not decode (as SkippedRecords) instead of failing.
  bool skip_bad_records = false;
  /// Example records, inference over 10000, 4 MiB units, fail on bad records.
  static SourceOptions Defaults() { return {}; }
  /// Checks the reader options and the sizes.
  Status Validate() const;
};

/// Opens a TFRecord file ("-" = stdin) as a Source. A record whose framing or CRC is bad is an
/// error of NextUnit() (or skipped by reader.skip_corrupt); a record that does not decode is an
/// error of its unit's Decode() naming the file, byte offset and record index.
Result<std::unique_ptr<Source>> OpenTfrecordSource(const std::string& path, const SourceOptions& options);

/// The same over an opened reader (a record range of a file, RecordReader::FromBufferRange);
/// options.reader is not looked at.
Result<std::unique_ptr<Source>> OpenTfrecordSource(std::unique_ptr<RecordReader> reader, const SourceOptions& options);

}  // namespace recflow::tfrecord
