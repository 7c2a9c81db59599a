// Test helpers of the C Data stream sink: numbered one-column batches and one batch fed as the stage executor would.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "recflow/columnar/builder.h"
#include "recflow/formats/sink.h"

namespace recflow::testing {

/// The schema of Numbers' batches: one int64 column "i".
inline SchemaPtr NumberSchema() { return Schema::Make({Field::Make("i", int64())}); }

/// A batch of `rows` rows, each holding `value`.
inline std::shared_ptr<RecordBatch> Numbers(int64_t value, int64_t rows = 1) {
  Int64Builder builder;
  for (int64_t r = 0; r < rows; ++r) EXPECT_TRUE(builder.Append(value).ok());
  return *RecordBatch::Make(NumberSchema(), rows, {*builder.Finish()});
}

/// The first value of a Numbers batch.
inline int64_t ValueOf(const RecordBatch& batch) { return batch.column_data(0)->GetValues<int64_t>(1)[0]; }

/// What the stage executor does with one batch of a sink that needs no local state: Consume,
/// Merge, Emit.
inline Status Feed(Sink* sink, const std::shared_ptr<RecordBatch>& batch) {
  ASSIGN_OR_RETURN(auto partial, sink->Consume(nullptr, batch));
  RETURN_NOT_OK(sink->Merge(partial.get()));
  return sink->Emit(partial.get());
}

}  // namespace recflow::testing
