// Test helper: record batches of one dictionary-encoded utf8 column.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow::arrow_ipc::testing {

/// A batch of one column `d`, dictionary<values=utf8, indices=int32> (`ordered` as given):
/// int32 `indices` into the values of `text` cut at `offsets`.
inline std::shared_ptr<RecordBatch> DictionaryBatch(const std::vector<int32_t>& indices, const std::string& text,
                                                    const std::vector<int32_t>& offsets, bool ordered = false) {
  auto values = ArrayData::Make(utf8(), static_cast<int64_t>(offsets.size()) - 1,
                                {nullptr, recflow::testing::BufferOf<int32_t>(offsets), Buffer::FromString(text)}, 0);
  const DataTypePtr type = dictionary(int32(), utf8(), ordered);
  auto column = ArrayData::Make(type, static_cast<int64_t>(indices.size()),
                                {nullptr, recflow::testing::BufferOf<int32_t>(indices)}, 0);
  column->dictionary = std::move(values);
  return *RecordBatch::Make(Schema::Make({Field::Make("d", type, true)}), column->length, {column});
}

}  // namespace recflow::arrow_ipc::testing
