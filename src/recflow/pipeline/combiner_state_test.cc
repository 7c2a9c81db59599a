// Tests of accumulator state as Arrow values: every built-in and fitted combiner's state, appended per part, read back
// with MergeState, finishes exactly as the parts' accumulators merged in memory (and as the unsplit input when exact).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/pipeline/combiner.h"
#include "recflow/pipeline/fitted_combiners.h"

namespace recflow::pipeline {
namespace {

// The results of one combiner over one column cut into parts.
struct Combined {
  std::string whole;    // one accumulator over every row
  std::string merged;   // an accumulator per part, merged in order (the local runner's way)
  std::string through;  // each part's state appended to one Arrow array, merged back with MergeState
};

std::vector<int64_t> Range(int64_t begin, int64_t end) {
  std::vector<int64_t> rows(static_cast<size_t>(end - begin));
  std::iota(rows.begin(), rows.end(), begin);
  return rows;
}

Result<std::string> Finished(const Combiner& combiner, const DataType& input, const Accumulator& accumulator) {
  ASSIGN_OR_RETURN(const DataTypePtr type, combiner.OutputType(input));
  ASSIGN_OR_RETURN(auto builder, MakeBuilder(type));
  RETURN_NOT_OK(accumulator.Finish(builder.get()));
  ASSIGN_OR_RETURN(auto result, builder->Finish());
  return ArrayToString(*result);
}

// The parts' states as one array, behind one leading state of an empty accumulator that a slice drops: MergeState
// must honour the array's offset.
Result<std::shared_ptr<ArrayData>> States(const Combiner& combiner, const DataType& input,
                                          const std::vector<std::unique_ptr<Accumulator>>& parts) {
  const DataTypePtr type = combiner.StateType(input);
  if (type == nullptr) return Status::Internal(combiner.name() + " has no state type");
  ASSIGN_OR_RETURN(auto builder, MakeBuilder(type));
  RETURN_NOT_OK(combiner.NewAccumulator(input)->AppendState(builder.get()));
  for (const auto& part : parts) RETURN_NOT_OK(part->AppendState(builder.get()));
  ASSIGN_OR_RETURN(auto states, builder->Finish());
  if (!states->type->Equals(*type)) return Status::Internal("the states are " + states->type->ToString());
  return states->Slice(1, static_cast<int64_t>(parts.size()));
}

// `combiner` over `column`, cut before each row of `cuts`.
Result<Combined> Combine(const Combiner& combiner, const ArrayData& column, const std::vector<int64_t>& cuts) {
  const DataType& input = *column.type;
  Combined out;
  auto whole = combiner.NewAccumulator(input);
  RETURN_NOT_OK(whole->Add(column, Range(0, column.length)));
  ASSIGN_OR_RETURN(out.whole, Finished(combiner, input, *whole));
  std::vector<std::unique_ptr<Accumulator>> parts;
  int64_t begin = 0;
  for (size_t p = 0; p <= cuts.size(); ++p) {
    const int64_t end = p < cuts.size() ? cuts[p] : column.length;
    parts.push_back(combiner.NewAccumulator(input));
    RETURN_NOT_OK(parts.back()->Add(column, Range(begin, end)));
    begin = end;
  }
  auto merged = combiner.NewAccumulator(input);
  for (const auto& part : parts) RETURN_NOT_OK(merged->Merge(*part));
  ASSIGN_OR_RETURN(out.merged, Finished(combiner, input, *merged));
  ASSIGN_OR_RETURN(auto states, States(combiner, input, parts));
  auto through = combiner.NewAccumulator(input);
  for (int64_t row = 0; row < states->length; ++row) RETURN_NOT_OK(through->MergeState(*states, row));
  ASSIGN_OR_RETURN(out.through, Finished(combiner, input, *through));
  return out;
}

std::shared_ptr<ArrayData> Int64s(const std::vector<std::optional<int64_t>>& values) {
  Int64Builder builder;
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return *builder.Finish();
}

std::shared_ptr<ArrayData> Float64s(const std::vector<double>& values) {
  Float64Builder builder;
  for (double v : values) EXPECT_TRUE(builder.Append(v).ok());
  return *builder.Finish();
}

std::shared_ptr<ArrayData> Strings(const std::vector<std::optional<std::string>>& values) {
  BinaryBuilder builder(utf8());
  for (const auto& v : values) EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  return *builder.Finish();
}

std::shared_ptr<const Combiner> Builtin(const char* name) { return *BuiltinCombiner(name); }

// `expr` (a Result<Combined>) holds, and its three results agree; with `exact`, also with the unsplit input's.
#define EXPECT_STATES_AGREE(expr, exact)                                         \
  do {                                                                           \
    const Result<Combined> combined = (expr);                                    \
    ASSERT_TRUE(combined.ok()) << combined.status().ToString();                  \
    EXPECT_EQ(combined->through, combined->merged);                              \
    if (exact) EXPECT_EQ(combined->through, combined->whole);                    \
  } while (false)

TEST(CombinerStateTest, CountsAndSumsOfIntegersMergeBackExactly) {
  const auto column = Int64s({3, std::nullopt, -7, 11, 5, std::nullopt, 2, 40});
  for (const char* name : {"count", "sum", "mean", "min", "max"}) {
    SCOPED_TRACE(name);
    EXPECT_STATES_AGREE(Combine(*Builtin(name), *column, {2, 3, 7}), true);
    EXPECT_STATES_AGREE(Combine(*Builtin(name), *column, {}), true);
  }
  const auto none = ArrayData::Make(null(), 5, {nullptr}, 5);
  EXPECT_STATES_AGREE(Combine(*Builtin("count_all"), *none, {1, 4}), true);
  const Result<Combined> sum = Combine(*Builtin("sum"), *column, {4});
  ASSERT_TRUE(sum.ok());
  EXPECT_EQ(sum->through, "[54]");
}

TEST(CombinerStateTest, AnIntegerMeanStaysExactThroughItsState) {
  // As doubles, 2^53 + 1 + 1 rounds back to 2^53 each time; the int64 sum in the state does not.
  const int64_t big = int64_t{1} << 53;
  const auto column = Int64s({big, 1, 1});
  const Result<Combined> mean = Combine(*Builtin("mean"), *column, {1, 2});
  ASSERT_TRUE(mean.ok()) << mean.status().ToString();
  EXPECT_EQ(mean->through, mean->whole);
  Float64Builder expected;
  ASSERT_TRUE(expected.Append(static_cast<double>(big + 2) / 3).ok());
  EXPECT_EQ(mean->through, ArrayToString(**expected.Finish()));
}

TEST(CombinerStateTest, AnIntegerSumOverflowingInTheMergedStatesFailsAsItsMergeDoes) {
  const int64_t half = std::numeric_limits<int64_t>::max() / 2 + 1;
  const auto column = Int64s({half, half});
  const auto sum = Builtin("sum");
  std::vector<std::unique_ptr<Accumulator>> parts;
  for (int64_t row = 0; row < 2; ++row) {
    parts.push_back(sum->NewAccumulator(*int64()));
    ASSERT_TRUE(parts.back()->Add(*column, std::vector<int64_t>{row}).ok());
  }
  auto states = States(*sum, *int64(), parts);
  ASSERT_TRUE(states.ok()) << states.status().ToString();
  auto merged = sum->NewAccumulator(*int64());
  ASSERT_TRUE(merged->MergeState(**states, 0).ok());
  const Status overflow = merged->MergeState(**states, 1);
  EXPECT_EQ(overflow.code(), StatusCode::kDataError);
  EXPECT_NE(overflow.message().find("overflows int64"), std::string::npos) << overflow.ToString();
}

TEST(CombinerStateTest, FloatAggregatesMergeBackBitForBit) {
  const auto column = Float64s({0.1, 0.2, std::nan(""), -3.5, 1e300, 0.3, -0.0, 7.25});
  for (const char* name : {"count", "sum", "mean", "min", "max"}) {
    SCOPED_TRACE(name);
    EXPECT_STATES_AGREE(Combine(*Builtin(name), *column, {1, 2, 5}), false);
  }
  EXPECT_STATES_AGREE(Combine(*Builtin("min"), *column, {3}), true);
  EXPECT_STATES_AGREE(Combine(*Builtin("max"), *column, {3}), true);
}

TEST(CombinerStateTest, MinAndMaxOfStringsKeepTheirBytesAndANoValuePartStaysNull) {
  const auto column = Strings({"pear", std::nullopt, "apple", "", "zebra", std::nullopt, "mango"});
  for (const char* name : {"min", "max", "count"}) {
    SCOPED_TRACE(name);
    // The part [5, 6) holds only a null: its state is null and merges as nothing.
    EXPECT_STATES_AGREE(Combine(*Builtin(name), *column, {1, 2, 5, 6}), true);
  }
  const Result<Combined> max = Combine(*Builtin("max"), *column, {5, 6});
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(max->through, R"(["zebra"])");
  const auto nulls = Strings({std::nullopt, std::nullopt});
  const Result<Combined> none = Combine(*Builtin("min"), *nulls, {1});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->through, "[null]");
}

TEST(CombinerStateTest, MomentsMergeBackAsTheirPartsMerge) {
  const auto column = Float64s({1.5, 2.25, -4.0, 8.0, 0.125, 3.0, 3.0, 10.5, -2.75});
  EXPECT_STATES_AGREE(Combine(*MomentsCombiner(), *column, {2, 3, 7}), false);
  EXPECT_STATES_AGREE(Combine(*MomentsCombiner(), *Int64s({4, 8, 15, 16, 23, 42}), {3}), false);
  const Result<Combined> moments = Combine(*MomentsCombiner(), *column, {4});
  ASSERT_TRUE(moments.ok());
  EXPECT_NE(moments->through.find("count: 9"), std::string::npos) << moments->through;
}

TEST(CombinerStateTest, AVocabularyMergesBackWithItsCountsAndOptions) {
  const auto column = Strings({"b", "a", "c", std::nullopt, "b", "a", "b", "d", "c", "b"});
  ops::VocabularyOptions top;
  top.top_k = 2;
  ops::VocabularyOptions frequent;
  frequent.min_frequency = 2;
  for (const auto& options : {ops::VocabularyOptions::Defaults(), top, frequent}) {
    EXPECT_STATES_AGREE(Combine(*VocabularyCombiner(options), *column, {3, 4, 9}), true);
  }
  const Result<Combined> two = Combine(*VocabularyCombiner(top), *column, {5});
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->through, R"([["b", "a"]])");
  EXPECT_STATES_AGREE(Combine(*VocabularyCombiner(ops::VocabularyOptions::Defaults()), *Int64s({7, 3, 7, 7}), {2}),
                      true);
}

}  // namespace
}  // namespace recflow::pipeline
