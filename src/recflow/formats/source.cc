// DecodeUnit and NextSourceUnit: a Source's calls with allocation failures as statuses.
#include "recflow/formats/source.h"

#include <new>

namespace recflow {

Result<DecodedUnit> DecodeUnit(SourceUnit& unit) {
  try {
    return unit.Decode();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory decoding " + std::to_string(unit.input_bytes()) +
                               " bytes of input (a record or batch too large for this machine)");
  }
}

Result<std::unique_ptr<SourceUnit>> NextSourceUnit(Source& source) {
  try {
    return source.NextUnit();
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("out of memory reading the next part of the input").WithFile(source.current_file());
  }
}

}  // namespace recflow
