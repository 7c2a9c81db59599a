// DictionaryMemo: the current values of each dictionary id of a stream or file, replaced or extended by dictionary batches.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"

namespace recflow::arrow_ipc {

/// The dictionaries seen so far, by id.
class DictionaryMemo {
 public:
  /// The current values of dictionary `id`, or nullptr before its first dictionary batch.
  std::shared_ptr<ArrayData> Find(int64_t id) const;
  /// Replaces the values of `id` (`is_delta` false) or appends `values` to them (`is_delta`
  /// true; a delta before any values simply sets them). Arrays already decoded keep the
  /// values they were decoded with.
  Status Add(int64_t id, std::shared_ptr<ArrayData> values, bool is_delta);
  /// Number of ids with values.
  int64_t size() const { return static_cast<int64_t>(values_.size()); }

 private:
  std::map<int64_t, std::shared_ptr<ArrayData>> values_;
};

}  // namespace recflow::arrow_ipc
