// MapSplitFile and OpenSplitRecords: a split's file mapped and checked, and its records opened by its format.
#pragma once

#include "recflow/dataset/split.h"
#include "recflow/dataset/split_source.h"
#include "recflow/formats/registry/format_splitter.h"

namespace recflow::dataset {

/// The file of `split` mapped whole from `fs`, as its format's splitter plans and reads it; a
/// DataError naming the file when its size is not split.file_size (the file changed).
Result<formats::MappedFile> MapSplitFile(const Split& split, FileSystem& fs);

/// Opens the records of `split` (its file already checked) in `data_schema` (no partition
/// columns). See OpenSplit for what each format reads.
Result<formats::RangeRecords> OpenSplitRecords(const Split& split, const SchemaPtr& data_schema,
                                               const InputOptions& options);

}  // namespace recflow::dataset
