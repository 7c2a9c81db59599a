// DrainReader: every batch a reader yields, checked with ValidateFull() — for tests.
#pragma once

#include <memory>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow::testing {

/// Calls reader.Next() until it returns nullptr, validating and collecting each batch.
template <typename Reader>
Result<std::vector<std::shared_ptr<RecordBatch>>> DrainReader(Reader& reader) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  while (true) {
    ASSIGN_OR_RETURN(auto batch, reader.Next());
    if (!batch) break;
    RETURN_NOT_OK(batch->ValidateFull());
    batches.push_back(std::move(batch));
  }
  return batches;
}

}  // namespace recflow::testing
