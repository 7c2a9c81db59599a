// The built-in combiners: count, count_all, sum, mean, min, max.
#include <limits>
#include <optional>
#include <string>

#include "recflow/columnar/element_access.h"
#include "recflow/columnar/schema.h"
#include "recflow/pipeline/combiner.h"

namespace recflow::pipeline {

namespace {

double FloatAt(const ArrayData& data, int64_t i) {
  return data.type->id() == TypeId::kFloat32 ? data.GetValues<float>(1)[i] : data.GetValues<double>(1)[i];
}

// What kind of value an aggregate sees.
enum class Kind { kInteger, kFloat, kBytes, kOther };

Kind KindOf(const DataType& type) {
  if (type.is_integer() && type.id() != TypeId::kUInt64) return Kind::kInteger;
  if (type.id() == TypeId::kFloat32 || type.id() == TypeId::kFloat64) return Kind::kFloat;
  if (type.id() == TypeId::kUtf8 || type.id() == TypeId::kBinary) return Kind::kBytes;
  return Kind::kOther;
}

Status Unsupported(const std::string& name, const DataType& type) {
  return Status::TypeError(name + " cannot aggregate " + type.ToString() + " values");
}

// count and count_all.
class CountAccumulator final : public Accumulator {
 public:
  explicit CountAccumulator(bool all) : all_(all) {}
  Status Add(const ArrayData& column, std::span<const int64_t> rows) override {
    if (all_) {
      count_ += static_cast<int64_t>(rows.size());
    } else {
      for (int64_t r : rows) count_ += IsValidAt(column, r) ? 1 : 0;
    }
    return Status::OK();
  }
  Status Merge(const Accumulator& other) override {
    count_ += static_cast<const CountAccumulator&>(other).count_;
    return Status::OK();
  }
  Status Finish(ArrayBuilder* out) const override { return static_cast<Int64Builder*>(out)->Append(count_); }
  Status AppendState(ArrayBuilder* out) const override { return Finish(out); }
  Status MergeState(const ArrayData& state, int64_t row) override {
    count_ += IntegerValue(state, row);
    return Status::OK();
  }

 private:
  bool all_;
  int64_t count_ = 0;
};

class CountCombiner final : public Combiner {
 public:
  explicit CountCombiner(bool all) : all_(all) {}
  std::string name() const override { return all_ ? "count_all" : "count"; }
  Result<DataTypePtr> OutputType(const DataType&) const override { return int64(); }
  std::unique_ptr<Accumulator> NewAccumulator(const DataType&) const override {
    return std::make_unique<CountAccumulator>(all_);
  }
  DataTypePtr StateType(const DataType&) const override { return int64(); }

 private:
  bool all_;
};

// sum and mean: exact int64 sums for integers (overflow is an error), float64 otherwise.
class SumAccumulator final : public Accumulator {
 public:
  SumAccumulator(Kind kind, bool mean) : kind_(kind), mean_(mean) {}
  Status Add(const ArrayData& column, std::span<const int64_t> rows) override {
    if (column.null_count == 0 && column.type->id() == TypeId::kInt64) {  // the common case, without per-row dispatch
      const int64_t* values = column.GetValues<int64_t>(1);
      for (int64_t r : rows) {
        RETURN_NOT_OK(AddInteger(values[r]));
        float_sum_ += static_cast<double>(values[r]);
      }
      count_ += static_cast<int64_t>(rows.size());
      return Status::OK();
    }
    for (int64_t r : rows) {
      if (!IsValidAt(column, r)) continue;
      ++count_;
      if (kind_ == Kind::kInteger) {
        const int64_t v = IntegerValue(column, r);
        RETURN_NOT_OK(AddInteger(v));
        float_sum_ += static_cast<double>(v);
      } else {
        float_sum_ += FloatAt(column, r);
      }
    }
    return Status::OK();
  }
  Status Merge(const Accumulator& other) override {
    const auto& o = static_cast<const SumAccumulator&>(other);
    count_ += o.count_;
    float_sum_ += o.float_sum_;
    return AddInteger(o.int_sum_);
  }
  Status Finish(ArrayBuilder* out) const override {
    if (mean_) {
      if (count_ == 0) return out->AppendNull();
      const double sum = kind_ == Kind::kInteger ? static_cast<double>(int_sum_) : float_sum_;
      return static_cast<Float64Builder*>(out)->Append(sum / static_cast<double>(count_));
    }
    if (kind_ == Kind::kInteger) return static_cast<Int64Builder*>(out)->Append(int_sum_);
    return static_cast<Float64Builder*>(out)->Append(float_sum_);
  }
  // The state: struct<count: int64, sum: int64 (integers) or float64>.
  Status AppendState(ArrayBuilder* out) const override {
    auto* state = static_cast<StructBuilder*>(out);
    RETURN_NOT_OK(state->Append());
    RETURN_NOT_OK(static_cast<Int64Builder*>(state->field_builder(0))->Append(count_));
    if (kind_ == Kind::kInteger) return static_cast<Int64Builder*>(state->field_builder(1))->Append(int_sum_);
    return static_cast<Float64Builder*>(state->field_builder(1))->Append(float_sum_);
  }
  Status MergeState(const ArrayData& state, int64_t row) override {
    const int64_t i = state.offset + row;
    count_ += IntegerValue(*state.children[0], i);
    if (kind_ != Kind::kInteger) {
      float_sum_ += state.children[1]->GetValues<double>(1)[i];
      return Status::OK();
    }
    const int64_t sum = IntegerValue(*state.children[1], i);
    float_sum_ += static_cast<double>(sum);
    return AddInteger(sum);
  }

 private:
  Status AddInteger(int64_t v) {
    if (kind_ != Kind::kInteger) return Status::OK();
    if (__builtin_add_overflow(int_sum_, v, &int_sum_)) return Status::DataError("integer sum overflows int64");
    return Status::OK();
  }
  Kind kind_;
  bool mean_;
  int64_t count_ = 0;
  int64_t int_sum_ = 0;
  double float_sum_ = 0;
};

class SumCombiner final : public Combiner {
 public:
  explicit SumCombiner(bool mean) : mean_(mean) {}
  std::string name() const override { return mean_ ? "mean" : "sum"; }
  Result<DataTypePtr> OutputType(const DataType& input) const override {
    const Kind kind = KindOf(input);
    if (kind != Kind::kInteger && kind != Kind::kFloat) return Unsupported(name(), input);
    return mean_ || kind == Kind::kFloat ? float64() : int64();
  }
  std::unique_ptr<Accumulator> NewAccumulator(const DataType& input) const override {
    return std::make_unique<SumAccumulator>(KindOf(input), mean_);
  }
  DataTypePtr StateType(const DataType& input) const override {
    return struct_({Field::Make("count", int64(), false),
                    Field::Make("sum", KindOf(input) == Kind::kInteger ? int64() : float64(), false)});
  }

 private:
  bool mean_;
};

// min and max of integers, floats (NaN ignored) or bytes.
class ExtremeAccumulator final : public Accumulator {
 public:
  ExtremeAccumulator(Kind kind, bool max) : kind_(kind), max_(max) {}
  Status Add(const ArrayData& column, std::span<const int64_t> rows) override {
    for (int64_t r : rows) {
      if (!IsValidAt(column, r)) continue;
      switch (kind_) {
        case Kind::kInteger: Take(IntegerValue(column, r), &int_); break;
        case Kind::kFloat: {
          const double v = FloatAt(column, r);
          if (v == v) Take(v, &float_);
          break;
        }
        default: TakeBytes(BinaryValue(column, r)); break;
      }
    }
    return Status::OK();
  }
  Status Merge(const Accumulator& other) override {
    const auto& o = static_cast<const ExtremeAccumulator&>(other);
    if (o.int_) Take(*o.int_, &int_);
    if (o.float_) Take(*o.float_, &float_);
    if (o.bytes_) TakeBytes(*o.bytes_);
    return Status::OK();
  }
  Status Finish(ArrayBuilder* out) const override {
    switch (kind_) {
      case Kind::kInteger: return int_ ? static_cast<Int64Builder*>(out)->Append(*int_) : out->AppendNull();
      case Kind::kFloat: return float_ ? static_cast<Float64Builder*>(out)->Append(*float_) : out->AppendNull();
      default: return bytes_ ? static_cast<BinaryBuilder*>(out)->Append(*bytes_) : out->AppendNull();
    }
  }
  // The state is the result: null when no value was seen.
  Status AppendState(ArrayBuilder* out) const override { return Finish(out); }
  Status MergeState(const ArrayData& state, int64_t row) override {
    if (!IsValidAt(state, row)) return Status::OK();
    switch (kind_) {
      case Kind::kInteger: Take(IntegerValue(state, row), &int_); break;
      case Kind::kFloat: Take(state.GetValues<double>(1)[row], &float_); break;
      default: TakeBytes(BinaryValue(state, row)); break;
    }
    return Status::OK();
  }

 private:
  template <typename T>
  void Take(T v, std::optional<T>* best) const {
    if (!*best || (max_ ? v > **best : v < **best)) *best = v;
  }
  void TakeBytes(std::string_view v) {
    if (!bytes_ || (max_ ? v > *bytes_ : v < *bytes_)) bytes_ = std::string(v);
  }
  Kind kind_;
  bool max_;
  std::optional<int64_t> int_;
  std::optional<double> float_;
  std::optional<std::string> bytes_;
};

class ExtremeCombiner final : public Combiner {
 public:
  explicit ExtremeCombiner(bool max) : max_(max) {}
  std::string name() const override { return max_ ? "max" : "min"; }
  Result<DataTypePtr> OutputType(const DataType& input) const override {
    switch (KindOf(input)) {
      case Kind::kInteger: return int64();
      case Kind::kFloat: return float64();
      case Kind::kBytes: return input.id() == TypeId::kUtf8 ? utf8() : binary();
      default: return Unsupported(name(), input);
    }
  }
  std::unique_ptr<Accumulator> NewAccumulator(const DataType& input) const override {
    return std::make_unique<ExtremeAccumulator>(KindOf(input), max_);
  }
  DataTypePtr StateType(const DataType& input) const override { return *OutputType(input); }

 private:
  bool max_;
};

}  // namespace

Result<std::shared_ptr<const Combiner>> BuiltinCombiner(std::string_view name) {
  if (name == "count") return std::shared_ptr<const Combiner>(std::make_shared<CountCombiner>(false));
  if (name == "count_all") return std::shared_ptr<const Combiner>(std::make_shared<CountCombiner>(true));
  if (name == "sum") return std::shared_ptr<const Combiner>(std::make_shared<SumCombiner>(false));
  if (name == "mean") return std::shared_ptr<const Combiner>(std::make_shared<SumCombiner>(true));
  if (name == "min") return std::shared_ptr<const Combiner>(std::make_shared<ExtremeCombiner>(false));
  if (name == "max") return std::shared_ptr<const Combiner>(std::make_shared<ExtremeCombiner>(true));
  return Status::NotFound("no combiner '" + std::string(name) + "' (built-in: count, count_all, sum, mean, min, max)");
}

}  // namespace recflow::pipeline
