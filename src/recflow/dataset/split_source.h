// OpenSplit: a Split read on its own as a Source of exactly the records that start inside it.
#pragma once

#include <memory>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/dataset/split.h"
#include "recflow/formats/avro/read_options.h"
#include "recflow/formats/csv/read_options.h"
#include "recflow/formats/jsonl/read_options.h"
#include "recflow/formats/source.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"

namespace recflow::dataset {

/// How the records of a split are read, per format (their `schema` members are replaced by the
/// schema OpenSplit is given; inference never runs on a split).
struct SplitReadOptions {
  csv::ReadOptions csv = csv::ReadOptions::Defaults();
  jsonl::ReadOptions jsonl = jsonl::ReadOptions::Defaults();
  tfrecord::SourceOptions tfrecord = tfrecord::SourceOptions::Defaults();
  avro::ReadOptions avro = avro::ReadOptions::Defaults();
  /// Each format's defaults.
  static SplitReadOptions Defaults() { return {}; }
};

/// The read options of a read's `options` (each format's, as its descriptor parsed them from the
/// read's settings and format words) for its splits.
Result<SplitReadOptions> SplitReadOptionsOf(const InputOptions& options);

/// Opens `split` as a Source yielding exactly the records that start inside it, in file order:
///  - TFRecord: from the first whole valid record at or after `begin` (tfrecord::FindRecordStart)
///    to the last whose header starts before `end`;
///  - JSON Lines: the lines that start in [begin, end) (jsonl::LineStartAtOrAfter);
///  - CSV: the rows that start in [begin, end), which must be row starts as MakeSplits found
///    them (the byte before each is an LF, else a DataError): every split reads the file's
///    header row first, so each knows (and checks) the column names;
///  - Avro: the blocks that start in [begin, end) (after a sync marker), read after the header;
///  - Arrow IPC file: record batches [begin, end); an Arrow stream or a compressed file: the
///    whole file (begin 0, end its size).
/// `schema` is the dataset's, as the process that made the splits decided it (the same for
/// every split): the data columns, then one column per partition level of the split, named as
/// its keys. The file must be the one the split was made against (CheckSplitFile). Byte
/// offsets in errors are the file's; record indices (and CSV / JSON Lines line numbers) count
/// from the split's first record, which errors note.
Result<std::unique_ptr<Source>> OpenSplit(const Split& split, const SchemaPtr& schema, const SplitReadOptions& options);

/// Reads `splits` one after the other (in the order given) as one Source: each is opened
/// (OpenSplit) when the one before it is exhausted.
Result<std::unique_ptr<Source>> OpenSplits(std::vector<Split> splits, const SchemaPtr& schema,
                                           const SplitReadOptions& options);

}  // namespace recflow::dataset
