// NameTable: linear probing over a power-of-two table of indices into the name list.
#include "recflow/formats/example/name_table_internal.h"

#include <cstring>

namespace recflow::example {

namespace {

// A multiply-xorshift hash over the name's 8-byte words (the last one overlapping), with no
// library call: names are short and looked up once per map entry whose position moved.
size_t Hash(std::string_view s) {
  constexpr uint64_t kMul = 0x9e3779b97f4a7c15u;
  const char* p = s.data();
  const size_t n = s.size();
  uint64_t h = (n + 1) * kMul;
  auto mix = [&h](uint64_t w) {
    h = (h ^ w) * kMul;
    h ^= h >> 29;
  };
  uint64_t w = 0;
  if (n >= 8) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::memcpy(&w, p + i, 8);
      mix(w);
    }
    if (i < n) {
      std::memcpy(&w, p + n - 8, 8);
      mix(w);
    }
  } else if (n >= 4) {
    uint32_t a, b;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    mix(uint64_t{a} << 32 | b);
  } else if (n > 0) {
    mix(static_cast<uint8_t>(p[0]) | static_cast<uint64_t>(static_cast<uint8_t>(p[n / 2])) << 8 |
        static_cast<uint64_t>(static_cast<uint8_t>(p[n - 1])) << 16);
  }
  return static_cast<size_t>(h);
}

}  // namespace

bool NameTable::Add(std::string name, int index) {
  if (Lookup(name) >= 0) return false;
  names_.emplace_back(std::move(name), index);
  Rehash();
  return true;
}

void NameTable::Rehash() {
  size_t capacity = 8;
  while (capacity < names_.size() * 2) capacity *= 2;
  slots_.assign(capacity, -1);
  for (size_t i = 0; i < names_.size(); ++i) {
    size_t h = Hash(names_[i].first) & (capacity - 1);
    while (slots_[h] >= 0) h = (h + 1) & (capacity - 1);
    slots_[h] = static_cast<int>(i);
  }
  cache_.clear();
}

int NameTable::Lookup(std::string_view name) const {
  if (slots_.empty()) return -1;
  const size_t mask = slots_.size() - 1;
  for (size_t h = Hash(name) & mask;; h = (h + 1) & mask) {
    const int i = slots_[h];
    if (i < 0) return -1;
    if (Same(names_[static_cast<size_t>(i)].first, name)) return i;
  }
}

}  // namespace recflow::example
