// DecodeAllUnits: every unit a Source yields, decoded and checked with ValidateFull() — for tests.
#pragma once

#include <memory>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/formats/source.h"

namespace recflow::testing {

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
