// The TFRecord format's registry entry, and the reader options its words give (shared with the record-level commands).
#pragma once

#include "recflow/core/result.h"
#include "recflow/formats/registry/format_args.h"
#include "recflow/formats/registry/format_registry.h"
#include "recflow/formats/tfrecord/record_reader.h"

namespace recflow::tfrecord {

/// The reader options the TFRecord words in `args` ask for: "compression" (auto when absent:
/// detected), "verify_crc", "skip_corrupt", "max_record_bytes"; InvalidArgument for a bad value.
Result<ReaderOptions> ReaderOptionsFromArgs(const formats::FormatArgs& args);

/// `options` reading a file with the codec detection found in it, unless they name one
/// (compression_auto false: --compression): the one detector every reader goes by.
ReaderOptions WithDetectedCodec(ReaderOptions options, const formats::DetectedFile& file);

/// Registers "tfrecord": reads TFRecord content (a checked record header, a .tfrecord/.tfrecords/
/// .tfr suffix) and empty inputs (zero records, as Beam writes empty shards), with the words of
/// ReaderOptionsFromArgs and "record_type" (example, sequence_example); several files whose
/// schema is inferred are sampled together first. Writes TFRecord files ("tfrecord", words
/// "record_type" and "decimals", the latter its own).
Status RegisterTfrecordFormat(formats::FormatRegistry* registry);

}  // namespace recflow::tfrecord
