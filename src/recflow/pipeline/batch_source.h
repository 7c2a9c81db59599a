// BatchSource: batches already in memory as a Source (Create, and the output of GroupByKey or a combine feeding a later stage).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/formats/source.h"

namespace recflow::pipeline {

/// A Source with one unit per batch, in order. The batches are shared, not copied.
std::unique_ptr<Source> MakeBatchSource(std::string name, SchemaPtr schema,
                                        std::shared_ptr<const std::vector<std::shared_ptr<RecordBatch>>> batches);

}  // namespace recflow::pipeline
