// KeyTable and KeySchema: the global key index of a grouping (GroupByKey, combines, their windowed forms).
#pragma once

#include <span>
#include <string>
#include <unordered_map>
#include <vector>

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

// Group index by key, and the global key rows (one key_rows batch per merged contribution).
class KeyTable {
 public:
  // The group of `key`; `created` says whether it is new.
  int64_t Find(const std::string& key, bool* created) {
    auto [it, inserted] = index_.try_emplace(key, static_cast<int64_t>(index_.size()));
    *created = inserted;
    return it->second;
  }
  // Records where new group's key values are: row `row` of `key_rows`.
  void AddKeyRow(const std::shared_ptr<RecordBatch>& key_rows, int64_t row) {
    if (key_rows != last_) {
      batches_.push_back(key_rows);
      last_ = key_rows;
      base_ += last_rows_;
      last_rows_ = key_rows->num_rows();
    }
    rows_.push_back(base_ + row);
  }
  int64_t size() const { return static_cast<int64_t>(rows_.size()); }
  // The key columns of groups [begin, end).
  Result<std::vector<std::shared_ptr<ArrayData>>> KeyColumns(const SchemaPtr& key_schema, int64_t begin, int64_t end) {
    return TakeKeyRows(key_schema, std::span<const int64_t>(rows_.data() + begin, static_cast<size_t>(end - begin)));
  }
  // The key columns of groups `groups` (any order, repeats allowed).
  Result<std::vector<std::shared_ptr<ArrayData>>> KeyColumnsOf(const SchemaPtr& key_schema,
                                                               std::span<const int64_t> groups) {
    std::vector<int64_t> rows;
    rows.reserve(groups.size());
    for (int64_t g : groups) rows.push_back(rows_[static_cast<size_t>(g)]);
    return TakeKeyRows(key_schema, rows);
  }

 private:
  Result<std::vector<std::shared_ptr<ArrayData>>> TakeKeyRows(const SchemaPtr& key_schema, std::span<const int64_t> rows) {
    std::vector<std::shared_ptr<ArrayData>> columns;
    if (all_ == nullptr || !batches_.empty()) {  // keys added since the last call (a streaming grouping's)
      if (all_ != nullptr) batches_.insert(batches_.begin(), all_);
      ASSIGN_OR_RETURN(all_, ConcatenateBatches(key_schema, batches_));
      batches_.clear();
    }
    for (int c = 0; c < key_schema->num_fields(); ++c) {
      ASSIGN_OR_RETURN(auto taken, Take(*all_->column_data(c), rows));
      columns.push_back(std::move(taken));
    }
    return columns;
  }

  std::unordered_map<std::string, int64_t> index_;
  std::vector<std::shared_ptr<RecordBatch>> batches_;  // key rows not in all_ yet
  std::shared_ptr<RecordBatch> last_;            // the last batch given to AddKeyRow
  std::shared_ptr<RecordBatch> all_;             // the key rows of every batch so far (made by KeyColumns)
  std::vector<int64_t> rows_;                     // each group's key row in the concatenation
  int64_t base_ = 0;
  int64_t last_rows_ = 0;
};

}  // namespace recflow::pipeline
