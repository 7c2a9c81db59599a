// Take: the rows of an array or record batch at given indices, as a new array of the same type.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow {

/// Elements `indices` (logical, each in [0, data.length), repeats allowed) of `data`, in that
/// order, with offset 0: values copied, nested children gathered, dictionaries shared, dense
/// union children kept whole. InvalidArgument for an index out of range.
Result<std::shared_ptr<ArrayData>> Take(const ArrayData& data, std::span<const int64_t> indices);

/// Take of every column of `batch`.
Result<std::shared_ptr<RecordBatch>> TakeRows(const RecordBatch& batch, std::span<const int64_t> indices);

}  // namespace recflow
