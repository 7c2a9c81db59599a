// Grouping: key encoding, per-batch groups, and the GroupByKey and combine states built on them.
#include "recflow/pipeline/grouping.h"
#include "recflow/pipeline/grouping_internal.h"

#include <cmath>
#include <algorithm>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/take.h"

namespace recflow::pipeline {

void EncodeKeyValue(const ArrayData& data, int64_t i, std::string* key) {
  if (!IsValidAt(data, i)) {
    key->push_back('\0');
    return;
  }
  key->push_back('\1');
  switch (data.type->id()) {
    case TypeId::kBool: key->push_back(bit_util::GetBit(data.buffers[1]->data(), data.offset + i) ? '\1' : '\0'); return;
    case TypeId::kFloat32: case TypeId::kFloat64: {
      double v = data.type->id() == TypeId::kFloat32 ? data.GetValues<float>(1)[i] : data.GetValues<double>(1)[i];
      if (v == 0) v = 0;               // -0.0 → 0.0
      if (std::isnan(v)) v = std::nan("");
      key->append(reinterpret_cast<const char*>(&v), sizeof v);
      return;
    }
    default: break;
  }
  if (data.type->is_binary_like() || data.type->id() == TypeId::kLargeBinary || data.type->id() == TypeId::kLargeUtf8) {
    const std::string_view value = BinaryValue(data, i);
    const uint64_t size = value.size();
    key->append(reinterpret_cast<const char*>(&size), sizeof size);
    key->append(value);
    return;
  }
  const int64_t width = data.type->bit_width() / 8;
  key->append(reinterpret_cast<const char*>(data.buffers[1]->data() + (data.offset + i) * width),
              static_cast<size_t>(width));
}

namespace {

// GroupByKey: keeps every contributing batch and each group's rows; NextOutput gathers lists.
class GroupByKeyState final : public GroupedState {
 public:
  GroupByKeyState(std::vector<int> keys, std::vector<int> values, SchemaPtr input, SchemaPtr output)
      : keys_(std::move(keys)), values_(std::move(values)), input_(std::move(input)), output_(std::move(output)) {}

  struct Part final : SinkPartial {
    std::shared_ptr<RecordBatch> batch;
    BatchGroups groups;
  };

  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState*, const std::shared_ptr<RecordBatch>& batch) const override {
    auto part = std::make_unique<Part>();
    part->batch = batch;
    ASSIGN_OR_RETURN(part->groups, GroupRows(*batch, keys_));
    return std::unique_ptr<SinkPartial>(std::move(part));
  }

  Status Merge(SinkPartial* partial) override {
    auto* part = static_cast<Part*>(partial);
    const int64_t base = rows_seen_;
    rows_seen_ += part->batch->num_rows();
    batches_.push_back(part->batch);
    for (size_t g = 0; g < part->groups.keys.size(); ++g) {
      bool created = false;
      const int64_t group = table_.Find(part->groups.keys[g], &created);
      if (created) {
        table_.AddKeyRow(part->groups.key_rows, static_cast<int64_t>(g));
        members_.emplace_back();
      }
      for (int64_t row : part->groups.rows[g]) members_[static_cast<size_t>(group)].push_back(base + row);
    }
    return Status::OK();
  }

  Result<std::shared_ptr<RecordBatch>> NextOutput(int64_t batch_rows) override {
    const int64_t begin = next_group_;
    if (begin >= table_.size()) return nullptr;
    if (all_ == nullptr) {
      ASSIGN_OR_RETURN(all_, ConcatenateBatches(input_, batches_));
      batches_.clear();  // `all_` holds the rows now: do not keep them twice while taking groups
    }
    const int64_t end = std::min(table_.size(), begin + batch_rows);
    next_group_ = end;
    ASSIGN_OR_RETURN(auto columns, table_.KeyColumns(KeySchema(*input_, keys_), begin, end));
    std::vector<int64_t> rows;
    BufferBuilder offsets;
    RETURN_NOT_OK(offsets.AppendValue<int32_t>(0));
    for (int64_t g = begin; g < end; ++g) {
      auto& members = members_[static_cast<size_t>(g)];
      rows.insert(rows.end(), members.begin(), members.end());
      std::vector<int64_t>().swap(members);  // taken: give the memory back as the output is made
      if (rows.size() > static_cast<size_t>(kMaxInt32Offset)) {
        return Status::InvalidArgument("a group of GroupByKey has more than 2^31 values");
      }
      RETURN_NOT_OK(offsets.AppendValue(static_cast<int32_t>(rows.size())));
    }
    const std::shared_ptr<Buffer> offset_buffer = offsets.Finish();
    for (size_t v = 0; v < values_.size(); ++v) {
      ASSIGN_OR_RETURN(auto values, Take(*all_->column_data(values_[v]), rows));
      const FieldPtr& field = output_->field(static_cast<int>(keys_.size() + v));
      columns.push_back(ArrayData::Make(field->type(), end - begin, {nullptr, offset_buffer}, 0, 0, {std::move(values)}));
    }
    return RecordBatch::Make(output_, end - begin, std::move(columns));
  }

 private:
  std::vector<int> keys_, values_;
  SchemaPtr input_, output_;
  KeyTable table_;
  std::vector<std::shared_ptr<RecordBatch>> batches_;
  std::shared_ptr<RecordBatch> all_;           // the concatenation of batches_, made by the first NextOutput
  std::vector<std::vector<int64_t>> members_;  // each group's rows in the concatenation of batches_
  int64_t rows_seen_ = 0;
  int64_t next_group_ = 0;                     // the first group NextOutput has not output yet
};

// CombinePerKey and CombineGlobally: per batch and group partial accumulators, merged in order.
class CombineState final : public GroupedState {
 public:
  CombineState(std::vector<int> keys, std::vector<int> columns, std::vector<Aggregate> aggregates, SchemaPtr input,
               SchemaPtr output)
      : keys_(std::move(keys)), columns_(std::move(columns)), aggregates_(std::move(aggregates)),
        input_(std::move(input)), output_(std::move(output)) {}

  using Accumulators = std::vector<std::unique_ptr<Accumulator>>;
  struct Part final : SinkPartial {
    BatchGroups groups;
    std::vector<Accumulators> accumulators;  // per group
  };

  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState*, const std::shared_ptr<RecordBatch>& batch) const override {
    auto part = std::make_unique<Part>();
    ASSIGN_OR_RETURN(part->groups, GroupRows(*batch, keys_));
    for (const auto& rows : part->groups.rows) {
      Accumulators accumulators = NewAccumulators();
      for (size_t a = 0; a < aggregates_.size(); ++a) {
        const int c = columns_[a];
        const ArrayData& column = c >= 0 ? *batch->column_data(c) : *no_column_;
        Status st = accumulators[a]->Add(column, rows);
        if (!st.ok()) return st.WithField(aggregates_[a].output);
      }
      part->accumulators.push_back(std::move(accumulators));
    }
    return std::unique_ptr<SinkPartial>(std::move(part));
  }

  Status Merge(SinkPartial* partial) override {
    auto* part = static_cast<Part*>(partial);
    for (size_t g = 0; g < part->groups.keys.size(); ++g) {
      bool created = false;
      const int64_t group = table_.Find(part->groups.keys[g], &created);
      if (created) {
        table_.AddKeyRow(part->groups.key_rows, static_cast<int64_t>(g));
        state_.push_back(std::move(part->accumulators[g]));
        continue;
      }
      for (size_t a = 0; a < aggregates_.size(); ++a) {
        Status st = state_[static_cast<size_t>(group)][a]->Merge(*part->accumulators[g][a]);
        if (!st.ok()) return st.WithField(aggregates_[a].output);
      }
    }
    return Status::OK();
  }

  Result<std::shared_ptr<RecordBatch>> NextOutput(int64_t batch_rows) override {
    if (keys_.empty() && state_.empty()) {
      // A global combine of nothing still has its one row (count 0, sum 0, mean null, ...).
      table_.AddKeyRow(std::make_shared<RecordBatch>(Schema::Make({}), 1, std::vector<std::shared_ptr<ArrayData>>{}), 0);
      state_.push_back(NewAccumulators());
    }
    const int64_t begin = next_group_;
    if (begin >= table_.size()) return nullptr;
    const int64_t end = std::min(table_.size(), begin + batch_rows);
    next_group_ = end;
    ASSIGN_OR_RETURN(auto columns, table_.KeyColumns(KeySchema(*input_, keys_), begin, end));
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      const FieldPtr& field = output_->field(static_cast<int>(keys_.size() + a));
      ASSIGN_OR_RETURN(auto builder, MakeBuilder(field->type()));
      for (int64_t g = begin; g < end; ++g) RETURN_NOT_OK(state_[static_cast<size_t>(g)][a]->Finish(builder.get()));
      ASSIGN_OR_RETURN(auto column, builder->Finish());
      columns.push_back(std::move(column));
    }
    for (int64_t g = begin; g < end; ++g) state_[static_cast<size_t>(g)].clear();  // output: give the memory back
    return RecordBatch::Make(output_, end - begin, std::move(columns));
  }

 private:
  Accumulators NewAccumulators() const {
    Accumulators accumulators;
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      const int c = columns_[a];
      accumulators.push_back(aggregates_[a].combiner->NewAccumulator(c >= 0 ? *input_->field(c)->type() : *null()));
    }
    return accumulators;
  }

  std::vector<int> keys_;
  std::vector<int> columns_;  // each aggregate's input column (-1: none)
  std::shared_ptr<ArrayData> no_column_ = ArrayData::Make(null(), 0, {nullptr}, 0);  // count_all's input
  std::vector<Aggregate> aggregates_;
  SchemaPtr input_, output_;
  KeyTable table_;
  std::vector<Accumulators> state_;  // per group
  int64_t next_group_ = 0;           // the first group NextOutput has not output yet
};

}  // namespace

Result<BatchGroups> GroupRows(const RecordBatch& batch, const std::vector<int>& key_columns) {
  BatchGroups groups;
  if (key_columns.empty()) {  // a global combine: every row in one group, nothing to hash
    groups.keys.emplace_back();
    groups.rows.emplace_back(static_cast<size_t>(batch.num_rows()));
    for (int64_t row = 0; row < batch.num_rows(); ++row) groups.rows[0][static_cast<size_t>(row)] = row;
    groups.key_rows = std::make_shared<RecordBatch>(Schema::Make({}), 1, std::vector<std::shared_ptr<ArrayData>>{});
    return groups;
  }
  std::unordered_map<std::string, size_t> index;
  std::vector<int64_t> first_rows;
  std::string key;
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    key.clear();
    for (int c : key_columns) EncodeKeyValue(*batch.column_data(c), row, &key);
    auto [it, inserted] = index.try_emplace(key, groups.keys.size());
    if (inserted) {
      groups.keys.push_back(key);
      groups.rows.emplace_back();
      first_rows.push_back(row);
    }
    groups.rows[it->second].push_back(row);
  }
  std::vector<std::shared_ptr<ArrayData>> columns;
  std::vector<FieldPtr> fields;
  for (int c : key_columns) {
    ASSIGN_OR_RETURN(auto taken, Take(*batch.column_data(c), first_rows));
    columns.push_back(std::move(taken));
    fields.push_back(batch.schema()->field(c));
  }
  ASSIGN_OR_RETURN(groups.key_rows, RecordBatch::Make(Schema::Make(std::move(fields)),
                                                      static_cast<int64_t>(first_rows.size()), std::move(columns)));
  return groups;
}

GroupingColumns ColumnsOf(const Node& node, const Schema& input) {
  GroupingColumns c;
  for (const std::string& key : node.keys) c.keys.push_back(input.GetFieldIndex(key));
  if (node.kind == NodeKind::kGroupByKey) {
    for (int i = 0; i < input.num_fields(); ++i) {
      if (std::find(c.keys.begin(), c.keys.end(), i) == c.keys.end()) c.values.push_back(i);
    }
  }
  for (const Aggregate& a : node.aggregates) c.aggregated.push_back(a.column.empty() ? -1 : input.GetFieldIndex(a.column));
  return c;
}

Result<std::unique_ptr<GroupedState>> GroupedState::Make(const Node& node, const SchemaPtr& input) {
  GroupingColumns c = ColumnsOf(node, *input);
  if (node.kind == NodeKind::kGroupByKey) {
    return std::unique_ptr<GroupedState>(std::make_unique<GroupByKeyState>(c.keys, c.values, input, node.schema));
  }
  return std::unique_ptr<GroupedState>(
      std::make_unique<CombineState>(c.keys, c.aggregated, node.aggregates, input, node.schema));
}

}  // namespace recflow::pipeline
