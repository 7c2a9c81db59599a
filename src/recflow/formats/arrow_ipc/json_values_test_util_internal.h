// Test support: the batches of an Arrow integration JSON file (.json.gz) as recflow RecordBatches.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow::arrow_ipc::testing {

/// Reads the `batches` (and the `dictionaries` they use) of the integration JSON at `path` as
/// record batches of `schema`, which must describe the same columns as the JSON's schema (it
/// usually comes from the IPC form of the case, so both sides have identical types). Each
/// column's `count`, `VALIDITY`, `DATA` (numbers, or decimal strings for 64-bit integers,
/// decimals and large offsets; hex for binary), `OFFSET`, `TYPE_ID` and `children` are read
/// per the type; a dictionary-encoded column's `DATA` are indices into the JSON dictionary of
/// the field's JSON dictionary id.
Result<std::vector<std::shared_ptr<RecordBatch>>> ReadIntegrationJsonBatches(const std::string& path,
                                                                             const SchemaPtr& schema);

}  // namespace recflow::arrow_ipc::testing
