// Batch sources: batches from memory or from a callback as a Source (Create, IDX files, and the output of GroupByKey
// or a combine feeding a later stage).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "recflow/formats/source.h"

namespace recflow {

/// Produces the next batch of a source, or nullptr after the last one.
using NextBatchFn = std::function<Result<std::shared_ptr<RecordBatch>>()>;

/// A Source with one unit per batch `next` produces, in order (`next` runs on the reading
/// thread only). `stored_bytes` is the input size for progress (-1 when unknown).
std::unique_ptr<Source> MakeCallbackSource(std::string name, SchemaPtr schema, NextBatchFn next,
                                           int64_t stored_bytes = -1);

/// A Source with one unit per batch, in order. The batches are shared, not copied.
std::unique_ptr<Source> MakeBatchSource(std::string name, SchemaPtr schema,
                                        std::shared_ptr<const std::vector<std::shared_ptr<RecordBatch>>> batches);

}  // namespace recflow
