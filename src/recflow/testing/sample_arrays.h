// Hand-made arrays of every recflow type, for round-trip tests of exporters, writers and readers.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/core/buffer.h"

namespace recflow::testing {

/// A buffer holding a copy of `values`.
template <typename T>
std::shared_ptr<Buffer> BufferOf(const std::vector<T>& values) {
  return *Buffer::CopyOf({reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(T)});
}

/// A validity bitmap of `bits` ('1' valid, '0' null), element 0 first.
std::shared_ptr<Buffer> ValidityOf(std::string_view bits);

/// Where a binary view's bytes are: inline (size <= 12: `buffer` and `offset` unused) or
/// `size` bytes at `offset` of data buffer `buffer`.
struct ViewSpec {
  std::string bytes;
  int32_t buffer = 0;
  int32_t offset = 0;
};

/// The views buffer of `views` (16 bytes each, as the format lays them out).
std::shared_ptr<Buffer> ViewsOf(const std::vector<ViewSpec>& views);

/// One array per recflow type (with nulls, sliced and nested variants), each named after what it
/// holds; every one passes ValidateFull.
std::vector<std::pair<std::string, std::shared_ptr<ArrayData>>> SampleArrays();

}  // namespace recflow::testing
