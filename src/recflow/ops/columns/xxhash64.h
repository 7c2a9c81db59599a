// XxHash64: the 64-bit xxHash of a byte string, written from the xxHash specification (XXH64).
#pragma once

#include <cstdint>
#include <string_view>

namespace recflow::ops {

/// XXH64 of `data` with `seed`, as specified in Yann Collet's xxHash specification
/// (doc/xxhash_spec.md, "XXH64 algorithm description"): stable across platforms and versions;
/// XxHash64("", 0) == 0xEF46DB3751D8E999, XxHash64("abc", 0) == 0x44BC2CF5AD770999.
uint64_t XxHash64(std::string_view data, uint64_t seed = 0);

}  // namespace recflow::ops
