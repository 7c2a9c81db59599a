// HashBucket: map text, binary and integer values to a fixed number of buckets with a stable hash.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"

namespace recflow::ops {

/// The bucket of one value key: XxHash64(key, seed 0) % num_buckets (num_buckets > 0).
int64_t HashBucketOf(std::string_view key, int64_t num_buckets);

/// XxHash64(value) % num_buckets as int64 for each value of `column`: utf8/binary (large too)
/// hash their bytes, integers the decimal text of their value (so 42 and "42" share a
/// bucket); list<T> of those maps element by element into list<int64>. Nulls stay null.
/// InvalidArgument when num_buckets < 1, TypeError for other types.
Result<std::shared_ptr<ArrayData>> HashBucket(const ArrayData& column, int64_t num_buckets);

}  // namespace recflow::ops
