// KeyTable and KeySchema: the global key index of a grouping (GroupByKey, combines, their windowed forms).
#pragma once

#include <numeric>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "recflow/columnar/chunked_take.h"
#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/columnar/take.h"
#include "recflow/pipeline/pipeline.h"

namespace recflow::pipeline {

// Appends row `i` of `data` to `key`: a null flag, then the value's bytes (length-prefixed
// for variable-width values; floats canonicalized so equal values encode alike). Equal keys
// encode alike in every process of the same build (a distributed exchange partitions by it).
void EncodeKeyValue(const ArrayData& data, int64_t i, std::string* key);

// Which input columns a grouping node reads: its keys, and the other columns (GroupByKey's
// lists) or each aggregate's column (-1 for count_all).
struct GroupingColumns {
  std::vector<int> keys;
  std::vector<int> values;
  std::vector<int> aggregated;
};
GroupingColumns ColumnsOf(const Node& node, const Schema& input);

// The key columns `columns` of `schema`.
inline SchemaPtr KeySchema(const Schema& schema, const std::vector<int>& columns) {
  std::vector<FieldPtr> fields;
  for (int c : columns) fields.push_back(schema.field(c));
  return Schema::Make(std::move(fields));
}

// Group index by key, and each group's key values. A group's key row is copied out of its batch once, when the next
// KeyColumns call seals the groups added since into a chunk of their own; chunks are merged as they grow (each
// one at most half the one before it), so a streaming grouping that outputs panes between batches copies each
// key O(log keys) times in all, and keeps only the key rows of its groups, not the batches they came in.
class KeyTable {
 public:
  // The group of `key`; `created` says whether it is new.
  int64_t Find(const std::string& key, bool* created) {
    auto [it, inserted] = index_.try_emplace(key, static_cast<int64_t>(index_.size()));
    *created = inserted;
    return it->second;
  }
  // Records where the newest group's key values are: row `row` of `key_rows`.
  void AddKeyRow(const std::shared_ptr<RecordBatch>& key_rows, int64_t row) {
    if (unsealed_.empty() || unsealed_.back().batch != key_rows) unsealed_.push_back(Unsealed{key_rows, {}});
    unsealed_.back().rows.push_back(row);
    ++size_;
  }
  int64_t size() const { return size_; }
  // The key columns of groups [begin, end).
  Result<std::vector<std::shared_ptr<ArrayData>>> KeyColumns(const SchemaPtr& key_schema, int64_t begin, int64_t end) {
    std::vector<int64_t> groups(static_cast<size_t>(end - begin));
    for (int64_t g = begin; g < end; ++g) groups[static_cast<size_t>(g - begin)] = g;
    return KeyColumnsOf(key_schema, groups);
  }
  // The key columns of groups `groups` (any order, repeats allowed).
  Result<std::vector<std::shared_ptr<ArrayData>>> KeyColumnsOf(const SchemaPtr& key_schema, std::span<const int64_t> groups) {
    // A global combine's one group has no key values.
    if (key_schema->num_fields() == 0) return std::vector<std::shared_ptr<ArrayData>>();
    RETURN_NOT_OK(Seal(key_schema));
    std::vector<int64_t> lengths;
    for (const auto& chunk : chunks_) lengths.push_back(chunk->num_rows());
    ASSIGN_OR_RETURN(ChunkedIndices plan, ChunkedIndices::Make(starts_, lengths, groups));
    std::vector<int> every_key(static_cast<size_t>(key_schema->num_fields()));
    std::iota(every_key.begin(), every_key.end(), 0);
    return plan.TakeColumns(chunks_, *key_schema, every_key);
  }

 private:
  // Key rows of new groups, still in the batch they came in.
  struct Unsealed {
    std::shared_ptr<RecordBatch> batch;
    std::vector<int64_t> rows;
  };

  // Copies the unsealed groups' key rows into a new chunk, then merges the last chunks while the newest is more
  // than half the one before it.
  Status Seal(const SchemaPtr& key_schema) {
    if (unsealed_.empty()) return Status::OK();
    std::vector<std::shared_ptr<RecordBatch>> taken;
    for (const Unsealed& u : unsealed_) {
      ASSIGN_OR_RETURN(auto rows, TakeRows(*u.batch, u.rows));
      taken.push_back(std::move(rows));
    }
    unsealed_.clear();
    ASSIGN_OR_RETURN(auto chunk, ConcatenateBatches(key_schema, taken));
    starts_.push_back(starts_.empty() ? 0 : starts_.back() + chunks_.back()->num_rows());
    chunks_.push_back(std::move(chunk));
    while (chunks_.size() > 1 && 2 * chunks_.back()->num_rows() > chunks_[chunks_.size() - 2]->num_rows()) {
      ASSIGN_OR_RETURN(auto merged, ConcatenateBatches(key_schema, {chunks_[chunks_.size() - 2], chunks_.back()}));
      chunks_.pop_back();
      starts_.pop_back();
      chunks_.back() = std::move(merged);
    }
    return Status::OK();
  }

  std::unordered_map<std::string, int64_t> index_;
  std::vector<Unsealed> unsealed_;                     // groups added since the last Seal, in group order
  std::vector<std::shared_ptr<RecordBatch>> chunks_;   // the sealed groups' key rows, in group order
  std::vector<int64_t> starts_;                        // the first group of each chunk
  int64_t size_ = 0;
};

}  // namespace recflow::pipeline
