// Shared argument checks of the builders (private).
#pragma once

#include <cstdint>
#include <string>

#include "recflow/core/status.h"

namespace recflow::internal {

/// Rejects negative or absurd element counts before any size is computed from them.
inline Status CheckElementCount(int64_t n) {
  if (n < 0 || n > (int64_t{1} << 48)) return Status::InvalidArgument("invalid element count " + std::to_string(n));
  return Status::OK();
}

/// The error of an array whose int32 offsets would overflow.
inline Status OffsetOverflow(const std::string& type_name, const char* what) {
  return Status::DataError(type_name + " array would exceed 2147483647 " + what + " (int32 offsets)");
}

}  // namespace recflow::internal
