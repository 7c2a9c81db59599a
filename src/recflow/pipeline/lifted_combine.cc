// LiftCombine: each aggregate's combiner wrapped twice — its accumulators finishing as their state on the map side,
// and merging states back on the reduce side.
#include "recflow/pipeline/lifted_combine.h"

#include <memory>
#include <string>
#include <utility>

namespace recflow::pipeline {

namespace {

// An accumulator of `inner`'s combiner whose result is its state.
class PartialAccumulator final : public Accumulator {
 public:
  explicit PartialAccumulator(std::unique_ptr<Accumulator> inner) : inner_(std::move(inner)) {}
  Status Add(const ArrayData& column, std::span<const int64_t> rows) override { return inner_->Add(column, rows); }
  Status Merge(const Accumulator& other) override {
    return inner_->Merge(*static_cast<const PartialAccumulator&>(other).inner_);
  }
  Status Finish(ArrayBuilder* out) const override { return inner_->AppendState(out); }

 private:
  std::unique_ptr<Accumulator> inner_;
};

// `inner` over a column of its input, outputting each group's state (its StateType).
class PartialCombiner final : public Combiner {
 public:
  explicit PartialCombiner(std::shared_ptr<const Combiner> inner) : inner_(std::move(inner)) {}
  std::string name() const override { return inner_->name(); }
  Result<DataTypePtr> OutputType(const DataType& input) const override {
    RETURN_NOT_OK(inner_->OutputType(input).status());
    DataTypePtr state = inner_->StateType(input);
    if (state == nullptr) return Status::TypeError(inner_->name() + " has no state form");
    return state;
  }
  std::unique_ptr<Accumulator> NewAccumulator(const DataType& input) const override {
    return std::make_unique<PartialAccumulator>(inner_->NewAccumulator(input));
  }

 private:
  std::shared_ptr<const Combiner> inner_;
};

// An accumulator of `inner`'s combiner fed states: each row added is a state it merges.
class FinalAccumulator final : public Accumulator {
 public:
  explicit FinalAccumulator(std::unique_ptr<Accumulator> inner) : inner_(std::move(inner)) {}
  Status Add(const ArrayData& states, std::span<const int64_t> rows) override {
    for (int64_t row : rows) RETURN_NOT_OK(inner_->MergeState(states, row));
    return Status::OK();
  }
  Status Merge(const Accumulator& other) override {
    return inner_->Merge(*static_cast<const FinalAccumulator&>(other).inner_);
  }
  Status Finish(ArrayBuilder* out) const override { return inner_->Finish(out); }

 private:
  std::unique_ptr<Accumulator> inner_;
};

// `inner` over a column of its states for input of `input`: the aggregate's result.
class FinalCombiner final : public Combiner {
 public:
  FinalCombiner(std::shared_ptr<const Combiner> inner, DataTypePtr input)
      : inner_(std::move(inner)), input_(std::move(input)) {}
  std::string name() const override { return inner_->name(); }
  Result<DataTypePtr> OutputType(const DataType& state) const override {
    const DataTypePtr expected = inner_->StateType(*input_);
    if (expected == nullptr || !state.Equals(*expected)) {
      return Status::TypeError(inner_->name() + " merges states of " + (expected ? expected->ToString() : "no type") +
                               ", not " + state.ToString());
    }
    return inner_->OutputType(*input_);
  }
  std::unique_ptr<Accumulator> NewAccumulator(const DataType&) const override {
    return std::make_unique<FinalAccumulator>(inner_->NewAccumulator(*input_));
  }

 private:
  std::shared_ptr<const Combiner> inner_;
  DataTypePtr input_;
};

}  // namespace

std::optional<LiftedCombine> LiftCombine(const Node& combine, const Schema& input) {
  if (combine.kind != NodeKind::kCombinePerKey && combine.kind != NodeKind::kCombineGlobally) return std::nullopt;
  LiftedCombine lifted;
  std::vector<FieldPtr> fields;
  for (const std::string& key : combine.keys) fields.push_back(input.field(input.GetFieldIndex(key)));
  for (const Aggregate& a : combine.aggregates) {
    const DataTypePtr type = a.column.empty() ? null() : input.field(input.GetFieldIndex(a.column))->type();
    DataTypePtr state = a.combiner->StateType(*type);
    if (state == nullptr) return std::nullopt;
    fields.push_back(Field::Make(a.output, state));
    lifted.partial.push_back(Aggregate{a.column, std::make_shared<PartialCombiner>(a.combiner), a.output});
    lifted.final.push_back(Aggregate{a.output, std::make_shared<FinalCombiner>(a.combiner, type), a.output});
  }
  lifted.partial_schema = Schema::Make(std::move(fields));
  return lifted;
}

}  // namespace recflow::pipeline
