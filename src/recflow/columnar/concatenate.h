// Concatenate: one array holding the elements of several arrays of one type, one after another (and batches likewise).
#pragma once

#include <memory>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow {

/// A new array of the elements of `arrays` in order (offsets and slices respected; the result
/// has offset 0 and owns fresh buffers, except that children and dictionaries may be shared).
/// Every type is supported. All arrays must have equal types (TypeError otherwise); dictionary
/// arrays must share their dictionary, or each dictionary must be a prefix of the last one (as
/// after a dictionary delta), and the result uses the last one. Offsets that no longer fit
/// their width (int32 binary, list, map, dense union) are a DataError. An empty list is an
/// InvalidArgument. The inputs should pass Validate(); they are not re-checked.
Result<std::shared_ptr<ArrayData>> Concatenate(const std::vector<std::shared_ptr<ArrayData>>& arrays);

/// The rows of `batches` (all of `schema`) one after the other: the only batch itself, each
/// column Concatenate()d, or an empty batch of `schema` when there are none.
Result<std::shared_ptr<RecordBatch>> ConcatenateBatches(const SchemaPtr& schema,
                                                        const std::vector<std::shared_ptr<RecordBatch>>& batches);

}  // namespace recflow
