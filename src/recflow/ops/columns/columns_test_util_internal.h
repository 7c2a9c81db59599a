// Test helpers of the column ops: small arrays with nulls (std::nullopt) and batches of named columns.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/equals.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/columnar/record_batch.h"

namespace recflow::ops::testing {

/// An array of `type` (numbers, date32, timestamp) from values, nullopt for nulls.
template <typename T>
std::shared_ptr<ArrayData> Numbers(const std::vector<std::optional<T>>& values, DataTypePtr type = CTypeTraits<T>::type()) {
  NumericBuilder<T> builder(std::move(type));
  for (const auto& v : values) {
    EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  }
  return *builder.Finish();
}

/// A bool array.
inline std::shared_ptr<ArrayData> Bools(const std::vector<std::optional<bool>>& values) {
  BooleanBuilder builder;
  for (const auto& v : values) {
    EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  }
  return *builder.Finish();
}

/// A utf8 (or binary) array.
inline std::shared_ptr<ArrayData> Strings(const std::vector<std::optional<std::string>>& values,
                                          DataTypePtr type = utf8()) {
  BinaryBuilder builder(std::move(type));
  for (const auto& v : values) {
    EXPECT_TRUE((v ? builder.Append(*v) : builder.AppendNull()).ok());
  }
  return *builder.Finish();
}

/// A list<utf8> array; nullopt rows are null lists, nullopt elements null items.
inline std::shared_ptr<ArrayData> StringLists(
    const std::vector<std::optional<std::vector<std::optional<std::string>>>>& rows) {
  ListBuilder builder(list(utf8()), std::make_unique<BinaryBuilder>(utf8()));
  auto* items = static_cast<BinaryBuilder*>(builder.value_builder());
  for (const auto& row : rows) {
    if (!row) {
      EXPECT_TRUE(builder.AppendNull().ok());
      continue;
    }
    EXPECT_TRUE(builder.Append().ok());
    for (const auto& v : *row) EXPECT_TRUE((v ? items->Append(*v) : items->AppendNull()).ok());
  }
  return *builder.Finish();
}

/// A batch of the named columns (all nullable).
inline std::shared_ptr<RecordBatch> BatchOf(const std::vector<std::pair<std::string, std::shared_ptr<ArrayData>>>& columns) {
  std::vector<FieldPtr> fields;
  std::vector<std::shared_ptr<ArrayData>> data;
  for (const auto& [name, array] : columns) {
    fields.push_back(Field::Make(name, array->type));
    data.push_back(array);
  }
  const int64_t rows = data.empty() ? 0 : data[0]->length;
  return *RecordBatch::Make(Schema::Make(std::move(fields)), rows, std::move(data));
}

/// gtest assertion that two arrays are ArrayEquals, printing both otherwise.
inline ::testing::AssertionResult SameArray(const ArrayData& actual, const ArrayData& expected) {
  if (ArrayEquals(actual, expected)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "actual " << actual.type->ToString() << " " << ArrayToString(actual)
                                       << "\nexpected " << expected.type->ToString() << " " << ArrayToString(expected);
}

}  // namespace recflow::ops::testing
