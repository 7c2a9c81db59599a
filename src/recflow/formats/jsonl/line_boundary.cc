// LineStartAtOrAfter: one memchr from the byte before the position.
#include "recflow/formats/jsonl/line_boundary.h"

#include <cstring>

namespace recflow::jsonl {

int64_t LineStartAtOrAfter(std::string_view data, int64_t at) {
  const auto size = static_cast<int64_t>(data.size());
  if (at <= 0) return 0;
  if (at > size) return size;
  const void* lf = std::memchr(data.data() + at - 1, '\n', static_cast<size_t>(size - at + 1));
  return lf == nullptr ? size : static_cast<const char*>(lf) - data.data() + 1;
}

}  // namespace recflow::jsonl
