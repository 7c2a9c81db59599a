// Test support: reads an Arrow integration JSON file (.json.gz) into a SchemaDesc and batch counts.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc::testing {

/// What an integration JSON file says about the metadata of its case.
struct IntegrationJson {
  SchemaDesc schema;
  /// batches[i].count.
  std::vector<int64_t> batch_counts;
  /// (dictionaries[i].id, dictionaries[i].data.count), in file order.
  std::vector<std::pair<int64_t, int64_t>> dictionaries;
};

/// Reads `path` (gzip or plain JSON) in Arrow's integration format: schema fields with name,
/// nullable, type {name, parameters}, children, dictionary {id, indexType, isOrdered} and
/// metadata [{key, value}], schema metadata, batch counts and dictionary counts.
Result<IntegrationJson> ReadIntegrationJson(const std::string& path);

/// Every case of the golden files under testdata/arrow-integration/<version>/: the path of each
/// `.stream` without its suffix, sorted (empty when the test data is absent).
std::vector<std::filesystem::path> IntegrationCases();

/// The whole text of `path`, decompressed by its suffix (".gz").
Result<std::string> ReadDecompressedText(const std::string& path);

/// A readable multi-line rendering of a schema, for test failure messages.
std::string SchemaToString(const SchemaDesc& schema);

}  // namespace recflow::arrow_ipc::testing
