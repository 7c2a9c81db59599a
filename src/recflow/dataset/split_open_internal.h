// OpenSplitRecords: the per-format part of OpenSplit, finding where the split's records start and end.
#pragma once

#include <memory>

#include "recflow/dataset/split.h"
#include "recflow/dataset/split_source.h"
#include "recflow/dataset/spliced_stream_internal.h"

namespace recflow::dataset {

/// A split's records as its format's Source, and how the offsets in its errors map to the file.
struct SplitRecords {
  std::unique_ptr<Source> source;
  SpliceMap map;
};

/// Opens the records of `split` (its file already checked) in `data_schema` (no partition
/// columns). See OpenSplit for what each format reads.
Result<SplitRecords> OpenSplitRecords(const Split& split, const SchemaPtr& data_schema,
                                      const SplitReadOptions& options);

}  // namespace recflow::dataset
