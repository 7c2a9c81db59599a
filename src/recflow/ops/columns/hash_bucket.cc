// HashBucket: XxHash64 of each value key modulo the bucket count.
#include "recflow/ops/columns/hash_bucket.h"

#include <string>

#include "recflow/ops/columns/value_key_internal.h"
#include "recflow/ops/columns/xxhash64.h"

namespace recflow::ops {

int64_t HashBucketOf(std::string_view key, int64_t num_buckets) {
  return static_cast<int64_t>(XxHash64(key) % static_cast<uint64_t>(num_buckets));
}

Result<std::shared_ptr<ArrayData>> HashBucket(const ArrayData& column, int64_t num_buckets) {
  if (num_buckets < 1) return Status::InvalidArgument("hash_bucket: num_buckets must be at least 1, not " + std::to_string(num_buckets));
  return internal::MapKeysToInt64(column, "hash_bucket",
                                  [&](std::string_view key) { return HashBucketOf(key, num_buckets); });
}

}  // namespace recflow::ops
