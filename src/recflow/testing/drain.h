// DrainReader and DecodeAllUnits: every batch a reader or a Source yields, checked with ValidateFull() — for tests.
#pragma once

#include <memory>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/source.h"

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

/// Takes every unit of `source` in order and decodes it, validating each batch; the first error
/// (of NextUnit or Decode) is returned.
inline Result<std::vector<DecodedUnit>> DecodeAllUnits(Source& source) {
  std::vector<DecodedUnit> units;
  while (true) {
    ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, source.NextUnit());
    if (!unit) break;
    ASSIGN_OR_RETURN(DecodedUnit decoded, unit->Decode());
    RETURN_NOT_OK(decoded.batch->ValidateFull());
    units.push_back(std::move(decoded));
  }
  return units;
}

}  // namespace recflow::testing
