// Select, Drop and Rename: reshape a record batch's columns without touching their data.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow::ops {

/// The columns `names` of `batch`, in that order (zero-copy). InvalidArgument naming a missing
/// column and listing the available ones; a name given twice is an InvalidArgument too.
Result<std::shared_ptr<RecordBatch>> Select(const RecordBatch& batch, const std::vector<std::string>& names);

/// `batch` without the columns `names` (zero-copy; the others keep their order).
/// InvalidArgument naming a missing column and listing the available ones.
Result<std::shared_ptr<RecordBatch>> Drop(const RecordBatch& batch, const std::vector<std::string>& names);

/// `batch` with columns renamed by the (old, new) pairs (zero-copy; order, types, nullability
/// and field metadata kept). InvalidArgument for a missing old name (listing the available
/// ones), an old name given twice, an empty new name, or a result with two equal names.
Result<std::shared_ptr<RecordBatch>> Rename(const RecordBatch& batch,
                                            const std::vector<std::pair<std::string, std::string>>& renames);

}  // namespace recflow::ops
