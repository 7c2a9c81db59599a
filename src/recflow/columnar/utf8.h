// Fast UTF-8 validation (ASCII fast path 8 bytes at a time), per RFC 3629.
#pragma once

#include <cstdint>
#include <string_view>

namespace recflow {

/// True when `data[0, size)` is well-formed UTF-8: no overlong forms, no surrogates
/// (U+D800..U+DFFF), nothing above U+10FFFF, no truncated sequences.
bool IsValidUtf8(const uint8_t* data, int64_t size);

/// Same for a string_view.
inline bool IsValidUtf8(std::string_view s) {
  return IsValidUtf8(reinterpret_cast<const uint8_t*>(s.data()), static_cast<int64_t>(s.size()));
}

}  // namespace recflow
