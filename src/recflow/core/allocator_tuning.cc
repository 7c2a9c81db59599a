// glibc malloc settings for batch-at-a-time allocation (see allocator_tuning.h).
#include "recflow/core/allocator_tuning.h"

#include <malloc.h>

#include <cstdlib>

namespace recflow {

void TuneAllocator() {
  if (std::getenv("GLIBC_TUNABLES") != nullptr) return;  // the user's own malloc settings win
  constexpr int kMmapThreshold = 32 << 20;   // glibc's own ceiling for its dynamic threshold
  constexpr int kTrimThreshold = 256 << 20;
  mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
  mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
}

void UseOneArena() {
  if (std::getenv("GLIBC_TUNABLES") != nullptr) return;
  mallopt(M_ARENA_MAX, 1);
}

}  // namespace recflow
