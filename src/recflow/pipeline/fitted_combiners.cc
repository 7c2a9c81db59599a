// Fitted combiners: ops::Moments and ops::VocabularyCounter behind the Combiner interface.
#include "recflow/pipeline/fitted_combiners.h"

#include "recflow/columnar/element_access.h"
#include "recflow/columnar/take.h"
#include "recflow/ops/columns/vocabulary_file.h"

namespace recflow::pipeline {

namespace {

// `column` restricted to `rows` (a zero-copy slice when they are consecutive).
Result<std::shared_ptr<ArrayData>> RowsOf(const ArrayData& column, std::span<const int64_t> rows) {
  if (rows.empty()) return column.Slice(0, 0);
  if (rows.back() - rows.front() + 1 == static_cast<int64_t>(rows.size())) {
    return column.Slice(rows.front(), static_cast<int64_t>(rows.size()));
  }
  return Take(column, rows);
}

const char* const kMomentFields[] = {"count", "mean", "m2", "min", "max"};

DataTypePtr MomentsType() {
  std::vector<FieldPtr> fields{Field::Make("count", int64(), false)};
  for (int i = 1; i < 5; ++i) fields.push_back(Field::Make(kMomentFields[i], float64(), false));
  return struct_(std::move(fields));
}

class MomentsAccumulator final : public Accumulator {
 public:
  Status Add(const ArrayData& column, std::span<const int64_t> rows) override {
    ASSIGN_OR_RETURN(auto part, RowsOf(column, rows));
    return moments_.Add(*part);
  }
  Status Merge(const Accumulator& other) override {
    moments_.Merge(static_cast<const MomentsAccumulator&>(other).moments_);
    return Status::OK();
  }
  Status Finish(ArrayBuilder* out) const override {
    auto* builder = static_cast<StructBuilder*>(out);
    RETURN_NOT_OK(builder->Append());
    RETURN_NOT_OK(static_cast<Int64Builder*>(builder->field_builder(0))->Append(moments_.count));
    const double values[] = {moments_.mean, moments_.m2, moments_.min, moments_.max};
    for (int i = 0; i < 4; ++i) RETURN_NOT_OK(static_cast<Float64Builder*>(builder->field_builder(i + 1))->Append(values[i]));
    return Status::OK();
  }
  // The state is the result: the moments themselves.
  Status AppendState(ArrayBuilder* out) const override { return Finish(out); }
  Status MergeState(const ArrayData& state, int64_t row) override {
    ASSIGN_OR_RETURN(const ops::Moments moments, ReadMoments(state, row));
    moments_.Merge(moments);
    return Status::OK();
  }

 private:
  ops::Moments moments_;
};

class MomentsCombinerImpl final : public Combiner {
 public:
  std::string name() const override { return "moments"; }
  Result<DataTypePtr> OutputType(const DataType& input) const override {
    if (!input.is_integer() && input.id() != TypeId::kFloat32 && input.id() != TypeId::kFloat64) {
      return Status::TypeError("moments need a numeric column, not " + input.ToString());
    }
    return MomentsType();
  }
  std::unique_ptr<Accumulator> NewAccumulator(const DataType&) const override {
    return std::make_unique<MomentsAccumulator>();
  }
  DataTypePtr StateType(const DataType&) const override { return MomentsType(); }
};

class VocabularyAccumulator final : public Accumulator {
 public:
  explicit VocabularyAccumulator(const ops::VocabularyOptions* options) : options_(options) {}
  Status Add(const ArrayData& column, std::span<const int64_t> rows) override {
    ASSIGN_OR_RETURN(auto part, RowsOf(column, rows));
    return counter_.Add(*part);
  }
  Status Merge(const Accumulator& other) override {
    counter_.Merge(static_cast<const VocabularyAccumulator&>(other).counter_);
    return Status::OK();
  }
  Status Finish(ArrayBuilder* out) const override {
    ASSIGN_OR_RETURN(ops::Vocabulary vocabulary, counter_.Finish(*options_));
    auto* builder = static_cast<ListBuilder*>(out);
    RETURN_NOT_OK(builder->Append());
    auto* values = static_cast<BinaryBuilder*>(builder->value_builder());
    for (const std::string& value : vocabulary.values()) RETURN_NOT_OK(values->Append(value));
    return Status::OK();
  }
  // The state: every counted value with its count, by value (VocabularyStateType).
  Status AppendState(ArrayBuilder* out) const override {
    auto* list = static_cast<ListBuilder*>(out);
    RETURN_NOT_OK(list->Append());
    auto* entry = static_cast<StructBuilder*>(list->value_builder());
    auto* values = static_cast<BinaryBuilder*>(entry->field_builder(0));
    auto* counts = static_cast<Int64Builder*>(entry->field_builder(1));
    for (const auto& [value, count] : counter_.SortedCounts()) {
      RETURN_NOT_OK(entry->Append());
      RETURN_NOT_OK(values->Append(value));
      RETURN_NOT_OK(counts->Append(count));
    }
    return Status::OK();
  }
  Status MergeState(const ArrayData& state, int64_t row) override {
    const ChildRange range = ListRange(state, row);
    const ArrayData& entry = *state.children[0];
    for (int64_t k = range.start; k < range.start + range.length; ++k) {
      counter_.AddCount(BinaryValue(*entry.children[0], entry.offset + k), IntegerValue(*entry.children[1], entry.offset + k));
    }
    return Status::OK();
  }

 private:
  const ops::VocabularyOptions* options_;
  ops::VocabularyCounter counter_;
};

class VocabularyCombinerImpl final : public Combiner {
 public:
  explicit VocabularyCombinerImpl(ops::VocabularyOptions options) : options_(options) {}
  std::string name() const override { return "vocabulary"; }
  Result<DataTypePtr> OutputType(const DataType&) const override { return list(Field::Make("item", utf8(), false)); }
  std::unique_ptr<Accumulator> NewAccumulator(const DataType&) const override {
    return std::make_unique<VocabularyAccumulator>(&options_);
  }
  // list<struct<value: binary, count: int64>>.
  DataTypePtr StateType(const DataType&) const override {
    return list(Field::Make("item", struct_({Field::Make("value", binary(), false), Field::Make("count", int64(), false)}),
                            false));
  }

 private:
  ops::VocabularyOptions options_;
};

}  // namespace

std::shared_ptr<const Combiner> MomentsCombiner() { return std::make_shared<MomentsCombinerImpl>(); }

Result<ops::Moments> ReadMoments(const ArrayData& column, int64_t row) {
  if (!column.type->Equals(*MomentsType())) return Status::TypeError("not a moments column: " + column.type->ToString());
  ops::Moments m;
  const int64_t i = column.offset + row;
  m.count = column.children[0]->GetValues<int64_t>(1)[i];
  double* targets[] = {&m.mean, &m.m2, &m.min, &m.max};
  for (int k = 0; k < 4; ++k) *targets[k] = column.children[static_cast<size_t>(k + 1)]->GetValues<double>(1)[i];
  return m;
}

std::shared_ptr<const Combiner> VocabularyCombiner(ops::VocabularyOptions options) {
  return std::make_shared<VocabularyCombinerImpl>(options);
}

Result<ops::Vocabulary> ReadVocabulary(const ArrayData& column, int64_t row) {
  if (column.type->id() != TypeId::kList) return Status::TypeError("not a vocabulary column: " + column.type->ToString());
  const ChildRange range = ListRange(column, row);
  std::vector<std::string> values;
  for (int64_t k = 0; k < range.length; ++k) values.emplace_back(BinaryValue(*column.children[0], range.start + k));
  return ops::Vocabulary::Make(std::move(values));
}

Status WriteFittedVocabulary(const SideInputValue& fit, FileSystem& file_system, const std::string& path) {
  ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> row, fit.SingleRow("fit"));
  ASSIGN_OR_RETURN(ops::Vocabulary vocabulary, ReadVocabulary(*row->column_data(0), 0));
  return ops::WriteVocabularyFile(file_system, path, vocabulary);
}

Result<std::shared_ptr<const ops::Vocabulary>> VocabularyMemo::Get(const SideInputs& side_inputs, std::string_view name) {
  ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> fit, side_inputs.Singleton(name));
  std::lock_guard<std::mutex> lock(mutex_);
  if (fit != fit_) {
    ASSIGN_OR_RETURN(ops::Vocabulary vocabulary, ReadVocabulary(*fit->column_data(0), 0));
    vocabulary_ = std::make_shared<const ops::Vocabulary>(std::move(vocabulary));
    fit_ = std::move(fit);
  }
  return vocabulary_;
}

}  // namespace recflow::pipeline
