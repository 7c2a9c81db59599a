// OpenSplit: a Split read on its own as a Source of exactly the records that start inside it.
#pragma once

#include <memory>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/dataset/split.h"
#include "recflow/formats/source.h"

namespace recflow::dataset {

/// Opens `split` as a Source yielding exactly the records that start inside it, in file order:
/// the split's format (looked up by name in options.registry) opens its range of the mapped file
/// (options.settings.file_system) with its FormatSplitter, with the format's read options from
/// `options` (ReadOptionsFor: the read's format words). The built-in formats:
///  - TFRecord: from the first whole valid record at or after `begin` (tfrecord::FindRecordStart)
///    to the last whose header starts before `end`;
///  - JSON Lines: the lines that start in [begin, end) (jsonl::LineStartAtOrAfter);
///  - CSV: the rows that start in [begin, end), which must be row starts as MakeSplits found
///    them (the byte before each is an LF, else a DataError): every split reads the file's
///    header row first, so each knows (and checks) the column names;
///  - Avro: the blocks that start in [begin, end) (after a sync marker), read after the header;
///  - Arrow IPC file: record batches [begin, end); an Arrow stream: the whole file.
/// A compressed file, or a file of a format without a splitter, is one split of the whole file
/// (begin 0, end its size), read by the format's FileOpener.
/// `schema` is the dataset's, as the process that made the splits decided it (the same for
/// every split): the data columns, then one column per partition level of the split, named as
/// its keys. The file must be the one the split was made against (CheckSplitFile). Byte
/// offsets in errors are the file's; record indices (and CSV / JSON Lines line numbers) count
/// from the split's first record, which errors note.
Result<std::unique_ptr<Source>> OpenSplit(const Split& split, const SchemaPtr& schema, const InputOptions& options);

/// Reads `splits` one after the other (in the order given) as one Source: each is opened
/// (OpenSplit) when the one before it is exhausted.
Result<std::unique_ptr<Source>> OpenSplits(std::vector<Split> splits, const SchemaPtr& schema,
                                           const InputOptions& options);

}  // namespace recflow::dataset
