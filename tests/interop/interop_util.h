// Interop test helpers: read TFRecord files, infer, decode and encode whole record sets.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/formats/tfrecord/read_records.h"

namespace recflow::interop {

/// Every record of a TFRecord file (compression detected, CRCs verified).
using tfrecord::ReadRecords;

/// The schema SchemaInferrer infers from all of `records`.
Result<SchemaPtr> InferSchema(const std::vector<std::string>& records, example::RecordType type);

/// All of `records` decoded into one batch; an error names the failing record's index.
Result<std::shared_ptr<RecordBatch>> DecodeAll(const std::vector<std::string>& records, const SchemaPtr& schema,
                                               example::RecordType type);

/// Every row of `batch` encoded.
Result<std::vector<std::string>> EncodeAll(const RecordBatch& batch, example::RecordType type);

}  // namespace recflow::interop

/// Fails the current test with the status message unless `expr` is OK.
#define INTEROP_ASSERT_OK(expr)                               \
  do {                                                        \
    const ::recflow::Status _st = (expr);                     \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.ToString(); \
  } while (false)

#define INTEROP_CONCAT_INNER(a, b) a##b
#define INTEROP_CONCAT(a, b) INTEROP_CONCAT_INNER(a, b)
#define INTEROP_ASSIGN_OR_FAIL_IMPL(tmp, lhs, rexpr)                  \
  auto tmp = (rexpr);                                                 \
  ASSERT_TRUE(tmp.ok()) << #rexpr << ": " << tmp.status().ToString(); \
  lhs = std::move(tmp).ValueUnsafe()

/// `lhs = value of expr`, failing the current test when `expr` is an error.
#define INTEROP_ASSIGN_OR_FAIL(lhs, rexpr) INTEROP_ASSIGN_OR_FAIL_IMPL(INTEROP_CONCAT(_result_, __LINE__), lhs, rexpr)
