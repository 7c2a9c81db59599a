// Row matchers: feature-by-feature comparison of recflow rows with libprotobuf messages.
#include "row_matcher.h"

#include <string>

#include "feature_values.h"
#include "recflow/columnar/schema.h"
#include "recflow/formats/example/record_type.h"

namespace recflow::interop {
namespace {

using ::testing::AssertionFailure;
using ::testing::AssertionResult;
using ::testing::AssertionSuccess;

std::string Quoted(const std::string& name) { return "'" + name + "'"; }

bool IsFeatureListColumn(const Field& field) {
  Result<bool> is_list = example::IsFeatureListField(field);
  return is_list.ok() && *is_list;
}

// One feature (nullptr when absent) against one cell of a scalar or list<scalar> column.
AssertionResult FeatureMatchesCell(const Field& field, const oracle::Feature* feature, const ArrayData& column,
                                   int64_t row, Direction direction) {
  const std::optional<FeatureValues> cell = CellValues(column, row);
  const bool absent = feature == nullptr;
  const FeatureValues expected = absent ? FeatureValues() : ValuesOf(*feature);
  if (!cell.has_value()) {
    if (direction == Direction::kEncoded && !absent) {
      return AssertionFailure() << "null cell encoded as a present feature " << expected.ToString();
    }
    if (expected.kind == FeatureValues::Kind::kNone) return AssertionSuccess();
    // The null type, and scalar columns, read an empty list as null.
    const bool null_or_scalar = field.type()->id() != TypeId::kList;
    if (direction == Direction::kDecoded && null_or_scalar && expected.size() == 0) return AssertionSuccess();
    return AssertionFailure() << "recflow has null, libprotobuf has " << expected.ToString();
  }
  if (absent) return AssertionFailure() << "recflow has " << cell->ToString() << ", libprotobuf has no feature";
  // The decoder converts an Int64List read into a float column.
  const bool converted = direction == Direction::kDecoded && cell->kind == FeatureValues::Kind::kFloat;
  if (*cell != (converted ? AsFloats(expected) : expected)) {
    return AssertionFailure() << "recflow has " << cell->ToString() << ", libprotobuf has " << expected.ToString();
  }
  return AssertionSuccess();
}

// One feature list (nullptr when absent) against one cell of a list<list<scalar>> column.
AssertionResult FeatureListMatchesCell(const Field& field, const oracle::FeatureList* list, const ArrayData& column,
                                       int64_t row, Direction direction) {
  const auto steps = StepValues(column, row);
  if (!steps.has_value()) {
    if (list == nullptr) return AssertionSuccess();
    if (field.type()->id() == TypeId::kNull && direction == Direction::kDecoded) return AssertionSuccess();
    return AssertionFailure() << "recflow has null, libprotobuf has " << list->feature_size() << " steps";
  }
  if (list == nullptr) return AssertionFailure() << "recflow has " << steps->size() << " steps, libprotobuf none";
  if (steps->size() != static_cast<size_t>(list->feature_size())) {
    return AssertionFailure() << "recflow has " << steps->size() << " steps, libprotobuf " << list->feature_size();
  }
  for (size_t i = 0; i < steps->size(); ++i) {
    const FeatureValues expected = ValuesOf(list->feature(static_cast<int>(i)));
    const std::optional<FeatureValues>& step = (*steps)[i];
    if (!step.has_value()) {
      if (expected.kind == FeatureValues::Kind::kNone) continue;
      return AssertionFailure() << "step " << i << ": recflow has null, libprotobuf has " << expected.ToString();
    }
    if (*step != expected) {
      return AssertionFailure() << "step " << i << ": recflow has " << step->ToString() << ", libprotobuf has "
                                << expected.ToString();
    }
  }
  return AssertionSuccess();
}

// Every name in `map` (feature names, or feature list names) has a column of that kind.
template <typename Map>
AssertionResult NoExtraFeatures(const RecordBatch& batch, const Map& map, bool feature_lists) {
  for (const auto& [name, unused] : map) {
    bool found = false;
    for (const FieldPtr& field : batch.schema()->fields()) {
      found = found || (field->name() == name && IsFeatureListColumn(*field) == feature_lists);
    }
    if (!found) return AssertionFailure() << "libprotobuf found feature " << Quoted(name) << " that has no column";
  }
  return AssertionSuccess();
}

}  // namespace

AssertionResult RowMatchesExample(const RecordBatch& batch, int64_t row, const oracle::Example& example,
                                  Direction direction) {
  const auto& features = example.features().feature();
  for (int i = 0; i < batch.num_columns(); ++i) {
    const Field& field = *batch.schema()->field(i);
    auto it = features.find(field.name());
    AssertionResult match =
        FeatureMatchesCell(field, it == features.end() ? nullptr : &it->second, *batch.column_data(i), row, direction);
    if (!match)
      return AssertionFailure() << "row " << row << ", feature " << Quoted(field.name()) << ": " << match.message();
  }
  if (direction == Direction::kEncoded) {
    AssertionResult extra = NoExtraFeatures(batch, features, false);
    if (!extra) return AssertionFailure() << "row " << row << ": " << extra.message();
  }
  return AssertionSuccess();
}

AssertionResult RowMatchesSequenceExample(const RecordBatch& batch, int64_t row, const oracle::SequenceExample& example,
                                          Direction direction) {
  const auto& context = example.context().feature();
  const auto& lists = example.feature_lists().feature_list();
  for (int i = 0; i < batch.num_columns(); ++i) {
    const Field& field = *batch.schema()->field(i);
    AssertionResult match = AssertionSuccess();
    if (IsFeatureListColumn(field)) {
      auto it = lists.find(field.name());
      match = FeatureListMatchesCell(field, it == lists.end() ? nullptr : &it->second, *batch.column_data(i), row,
                                     direction);
    } else {
      auto it = context.find(field.name());
      match =
          FeatureMatchesCell(field, it == context.end() ? nullptr : &it->second, *batch.column_data(i), row, direction);
    }
    if (!match) {
      return AssertionFailure() << "row " << row << ", " << (IsFeatureListColumn(field) ? "feature list " : "context ")
                                << Quoted(field.name()) << ": " << match.message();
    }
  }
  if (direction == Direction::kEncoded) {
    AssertionResult extra = NoExtraFeatures(batch, context, false);
    if (extra) extra = NoExtraFeatures(batch, lists, true);
    if (!extra) return AssertionFailure() << "row " << row << ": " << extra.message();
  }
  return AssertionSuccess();
}

}  // namespace recflow::interop
