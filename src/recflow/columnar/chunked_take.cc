// ChunkedIndices: indices split by chunk (binary search on the starts), the parts taken, then reordered once.
#include "recflow/columnar/chunked_take.h"

#include <algorithm>
#include <string>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/take.h"

namespace recflow {

Result<ChunkedIndices> ChunkedIndices::Make(std::span<const int64_t> starts, std::span<const int64_t> lengths,
                                            std::span<const int64_t> indices) {
  if (starts.size() != lengths.size()) return Status::InvalidArgument("chunked take: a start and a length per chunk");
  ChunkedIndices plan;
  plan.local_.resize(starts.size());
  plan.size_ = static_cast<int64_t>(indices.size());
  std::vector<size_t> chunk_of(indices.size());
  bool in_order = true;  // every index in a chunk no earlier than the one before's
  for (size_t i = 0; i < indices.size(); ++i) {
    const int64_t index = indices[i];
    const auto after = std::upper_bound(starts.begin(), starts.end(), index);
    const size_t k = static_cast<size_t>(after - starts.begin()) - 1;
    if (after == starts.begin() || index - starts[k] >= lengths[k]) {
      return Status::InvalidArgument("chunked take: index " + std::to_string(index) + " (position " +
                                     std::to_string(i) + ") is in no chunk");
    }
    in_order = in_order && (i == 0 || k >= chunk_of[i - 1]);
    chunk_of[i] = k;
    plan.local_[k].push_back(index - starts[k]);
  }
  if (in_order) return plan;
  std::vector<int64_t> next(starts.size(), 0);  // per chunk: where its next element goes among the parts
  for (size_t k = 1; k < next.size(); ++k) next[k] = next[k - 1] + static_cast<int64_t>(plan.local_[k - 1].size());
  plan.order_.resize(indices.size());
  for (size_t i = 0; i < indices.size(); ++i) plan.order_[i] = next[chunk_of[i]]++;
  return plan;
}

Result<std::shared_ptr<ArrayData>> ChunkedIndices::Take(std::span<const std::shared_ptr<ArrayData>> chunks,
                                                        const DataTypePtr& type) const {
  if (chunks.size() != local_.size()) return Status::InvalidArgument("chunked take: one array per chunk");
  std::vector<std::shared_ptr<ArrayData>> parts;
  for (size_t k = 0; k < chunks.size(); ++k) {
    if (local_[k].empty()) continue;
    ASSIGN_OR_RETURN(auto part, recflow::Take(*chunks[k], local_[k]));
    parts.push_back(std::move(part));
  }
  if (parts.empty()) return chunks.empty() ? MakeEmptyArray(type) : recflow::Take(*chunks.front(), {});
  std::shared_ptr<ArrayData> joined = parts.front();
  if (parts.size() > 1) {
    ASSIGN_OR_RETURN(joined, Concatenate(parts));
  }
  if (order_.empty()) return joined;
  return recflow::Take(*joined, order_);
}

Result<std::vector<std::shared_ptr<ArrayData>>> ChunkedIndices::TakeColumns(
    std::span<const std::shared_ptr<RecordBatch>> batches, const Schema& schema, std::span<const int> columns) const {
  std::vector<std::shared_ptr<ArrayData>> taken;
  std::vector<std::shared_ptr<ArrayData>> parts(batches.size());
  for (int column : columns) {
    for (size_t k = 0; k < batches.size(); ++k) parts[k] = batches[k]->column_data(column);
    ASSIGN_OR_RETURN(auto one, Take(parts, schema.field(column)->type()));
    taken.push_back(std::move(one));
  }
  return taken;
}

}  // namespace recflow
