// NameTable: linear probing over a power-of-two table of indices into the name list.
#include "recflow/formats/example/name_table_internal.h"

namespace recflow::example {

namespace {
size_t Hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
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
    if (names_[static_cast<size_t>(i)].first == name) return i;
  }
}

}  // namespace recflow::example
