// Test helpers for output formats: columns from literal values, encoding whole batches, row checks.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/formats/output_format.h"

namespace recflow::testing {

/// A column of T (a NumericBuilder type, or bool) from values; nullopt = null.
template <typename T>
std::shared_ptr<ArrayData> Column(const std::vector<std::optional<T>>& values) {
  std::conditional_t<std::is_same_v<T, bool>, BooleanBuilder, NumericBuilder<T>> b;
  for (const auto& v : values) EXPECT_TRUE((v ? b.Append(*v) : b.AppendNull()).ok());
  return *b.Finish();
}

/// A utf8 (default) or binary column from values; nullopt = null.
inline std::shared_ptr<ArrayData> Strings(const std::vector<std::optional<std::string>>& values,
                                          DataTypePtr type = utf8()) {
  BinaryBuilder b(std::move(type));
  for (const auto& v : values) EXPECT_TRUE((v ? b.Append(*v) : b.AppendNull()).ok());
  return *b.Finish();
}

/// A field tagged with the timestamp logical type (int64 microseconds, UTC).
inline FieldPtr TimestampField(std::string name, bool nullable = true) {
  auto metadata = std::make_shared<KeyValueMetadata>();
  metadata->Set(std::string(kLogicalTypeKey), std::string(kTimestampLogicalType));
  return Field::Make(std::move(name), int64(), nullable, std::move(metadata));
}

/// A validated batch of `columns` under `fields`.
inline std::shared_ptr<RecordBatch> MakeBatch(std::vector<FieldPtr> fields,
                                              std::vector<std::shared_ptr<ArrayData>> columns) {
  const int64_t rows = columns.empty() ? 0 : columns[0]->length;
  auto batch = RecordBatch::Make(Schema::Make(std::move(fields)), rows, std::move(columns));
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_TRUE((*batch)->ValidateFull().ok());
  return *batch;
}

/// 0, 1, ..., n - 1.
inline std::vector<int64_t> AllRows(int64_t n) {
  std::vector<int64_t> rows(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) rows[static_cast<size_t>(i)] = i;
  return rows;
}

/// Every row of `batch` encoded by a fresh encoder of `format` (FileHeader not included).
inline Result<EncodedRecords> EncodeAll(const OutputFormat& format, const RecordBatch& batch) {
  ASSIGN_OR_RETURN(auto encoder, format.NewEncoder());
  EncodedRecords out;
  RETURN_NOT_OK(encoder->Encode(batch, AllRows(batch.num_rows()), &out));
  return out;
}

/// Expects row k of `got` to equal row rows[k] of `want` (schemas compared without metadata).
inline void ExpectRowsEqual(const RecordBatch& got, const RecordBatch& want, const std::vector<int64_t>& rows) {
  ASSERT_EQ(got.num_rows(), static_cast<int64_t>(rows.size()));
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto g = got.Slice(static_cast<int64_t>(k), 1);
    const auto w = want.Slice(rows[k], 1);
    EXPECT_TRUE(g->Equals(*w)) << "row " << k << "\ngot:\n" << g->ToString() << "\nwant:\n" << w->ToString();
  }
}

/// Expects ends to be ascending, to end at bytes.size(), and record k to be `records[k]`.
inline void ExpectRecords(const EncodedRecords& out, const std::vector<std::string>& records) {
  ASSERT_EQ(out.ends.size(), records.size());
  int64_t begin = 0;
  for (size_t k = 0; k < records.size(); ++k) {
    ASSERT_LE(out.ends[k], static_cast<int64_t>(out.bytes.size()));
    EXPECT_EQ(out.bytes.substr(static_cast<size_t>(begin), static_cast<size_t>(out.ends[k] - begin)), records[k])
        << "record " << k;
    begin = out.ends[k];
  }
  EXPECT_EQ(begin, static_cast<int64_t>(out.bytes.size()));
}

/// Checks the RecordEncoder error contract on `batch`, whose row `bad_row` fails with `code`
/// naming `column`: the Status has the field and the record, and `out` keeps its content.
inline void ExpectFailureLeavesOutput(const OutputFormat& format, const RecordBatch& batch, int64_t bad_row,
                                      StatusCode code, const std::string& column) {
  auto encoder = format.NewEncoder();
  ASSERT_TRUE(encoder.ok()) << encoder.status().ToString();
  EncodedRecords out;
  out.bytes = "previous";
  out.ends = {8};
  std::vector<int64_t> rows = AllRows(batch.num_rows());
  rows.push_back(0);  // rows before and after the bad one are not appended either
  const Status st = (*encoder)->Encode(batch, rows, &out);
  EXPECT_EQ(st.code(), code) << st.ToString();
  EXPECT_EQ(st.context().field, column) << st.ToString();
  EXPECT_EQ(st.context().record, bad_row) << st.ToString();
  EXPECT_EQ(out.bytes, "previous");
  EXPECT_EQ(out.ends, std::vector<int64_t>{8});
  // Out-of-range rows are refused the same way.
  for (int64_t row : {int64_t{-1}, batch.num_rows()}) {
    const std::vector<int64_t> one{0, row};
    const Status range = (*encoder)->Encode(batch, one, &out);
    EXPECT_EQ(range.code(), StatusCode::kInvalidArgument) << range.ToString();
    EXPECT_EQ(range.context().record, row);
    EXPECT_EQ(out.bytes, "previous");
    EXPECT_EQ(out.ends, std::vector<int64_t>{8});
  }
  // So is a batch of another schema.
  std::vector<FieldPtr> renamed;
  for (const FieldPtr& field : batch.schema()->fields()) renamed.push_back(field->WithName(field->name() + "_other"));
  auto other = RecordBatch::Make(Schema::Make(std::move(renamed)), batch.num_rows(), batch.columns());
  ASSERT_TRUE(other.ok());
  EXPECT_EQ((*encoder)->Encode(**other, std::vector<int64_t>{0}, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out.bytes, "previous");
}

}  // namespace recflow::testing
