// Test helpers for splits: read splits one by one in shuffled order and compare with a whole-file read.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/equals.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/dataset/split_plan.h"
#include "recflow/dataset/split_source.h"
#include "recflow/formats/source_test_util.h"

namespace recflow::dataset {

/// The options of a read with format `words` ({"delimiter", ";"}, ...), as the CLI makes them.
inline InputOptions ReadWords(const std::vector<std::pair<std::string, std::string>>& words) {
  InputSpec spec;
  for (const auto& [key, value] : words) spec.args.Set(key, value);
  Result<InputOptions> options = MakeInputOptions(spec, LocalFileSystem::Instance());
  EXPECT_TRUE(options.ok()) << options.status().ToString();
  return options.ok() ? *std::move(options) : InputOptions();
}

/// The SplitInput of `path` read as the built-in format named `format`.
inline SplitInput InputOf(const std::string& path, std::string_view format, const std::string& compression = "none") {
  SplitInput input;
  input.path = path;
  input.format = formats::BuiltinFormats().FindByName(format);
  EXPECT_NE(input.format, nullptr) << format;
  input.compression = compression;
  return input;
}

/// Every record of `source` as one batch (units decoded in order, each validated).
inline Result<std::shared_ptr<RecordBatch>> ReadAll(Source& source) {
  ASSIGN_OR_RETURN(std::vector<DecodedUnit> units, testing::DecodeAllUnits(source));
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (DecodedUnit& unit : units) batches.push_back(std::move(unit.batch));
  return ConcatenateBatches(source.schema(), batches);
}

/// Opens every split on its own, in a shuffled order (seeded: deterministic), reads it whole,
/// and concatenates the results in split order.
inline Result<std::shared_ptr<RecordBatch>> ReadSplitsShuffled(const std::vector<Split>& splits,
                                                              const SchemaPtr& schema,
                                                              const InputOptions& options, uint32_t seed) {
  std::vector<size_t> order(splits.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(seed));
  std::vector<std::shared_ptr<RecordBatch>> parts(splits.size());
  for (const size_t i : order) {
    // Each split goes through its one-line JSON form, as it would to another process.
    ASSIGN_OR_RETURN(Split split, ParseSplit(SplitToJson(splits[i])));
    ASSIGN_OR_RETURN(std::unique_ptr<Source> source, OpenSplit(split, schema, options));
    ASSIGN_OR_RETURN(parts[i], ReadAll(*source));
  }
  return ConcatenateBatches(schema, parts);
}

/// Splits `input` at each size, reads the splits as ReadSplitsShuffled does and expects exactly
/// `whole`'s rows; also that the splits tile the file (each begins where the one before ends).
inline void ExpectSplitsReadWhole(const SplitInput& input, const std::shared_ptr<RecordBatch>& whole,
                                  const InputOptions& options, const std::vector<int64_t>& sizes) {
  for (const int64_t size : sizes) {
    SCOPED_TRACE("split size " + std::to_string(size));
    SplitOptions split_options = SplitOptions::Defaults();
    split_options.target_bytes = size;
    split_options.read = options;
    auto splits = MakeSplits({input}, split_options);
    ASSERT_TRUE(splits.ok()) << splits.status().ToString();
    ASSERT_FALSE(splits->empty());
    EXPECT_EQ(splits->front().begin, 0);
    for (size_t i = 1; i < splits->size(); ++i) EXPECT_EQ((*splits)[i].begin, (*splits)[i - 1].end);
    auto read = ReadSplitsShuffled(*splits, whole->schema(), options, static_cast<uint32_t>(size));
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    ASSERT_EQ((*read)->num_rows(), whole->num_rows()) << splits->size() << " splits";
    for (int c = 0; c < whole->num_columns(); ++c) {
      EXPECT_TRUE(ArrayEquals(*(*read)->column_data(c), *whole->column_data(c))) << "column " << c;
    }
  }
}

}  // namespace recflow::dataset
