// HeldBytes: a walk over columns, children and dictionaries with a set of the buffers seen.
#include "recflow/serve/held_bytes.h"

#include <unordered_set>

namespace recflow::serve {

namespace {

void AddBuffers(const ArrayData& data, std::unordered_set<const Buffer*>* seen, int64_t* bytes) {
  for (const auto& buffer : data.buffers) {
    if (buffer == nullptr) continue;
    // A slice keeps all of its root's memory alive (an IPC body, a decoded block): the root is
    // counted, once. A slice of a mapped file holds no heap memory: its own bytes are counted.
    const Buffer* held = buffer->root().mapped() ? buffer.get() : &buffer->root();
    if (seen->insert(held).second) *bytes += held->size();
  }
  for (const auto& child : data.children) AddBuffers(*child, seen, bytes);
  if (data.dictionary != nullptr) AddBuffers(*data.dictionary, seen, bytes);
}

}  // namespace

int64_t HeldBytes(std::span<const std::shared_ptr<RecordBatch>> batches) {
  std::unordered_set<const Buffer*> seen;
  int64_t bytes = 0;
  for (const auto& batch : batches) {
    for (int c = 0; c < batch->num_columns(); ++c) AddBuffers(*batch->column_data(c), &seen, &bytes);
  }
  return bytes;
}

}  // namespace recflow::serve
