// SideInputs: PCollections a transform reads whole (statistics, vocabularies, lookup tables), computed before it runs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow::pipeline {

/// Every row of one side input, as the batches that produced it (a global combine gives one
/// batch of one row).
struct SideInputValue {
  SchemaPtr schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;
  /// Rows over all batches.
  int64_t num_rows() const;
  /// The batch holding the only row (a global combine's result); InvalidArgument, naming the
  /// value `name`, when there is not exactly one row.
  Result<std::shared_ptr<RecordBatch>> SingleRow(std::string_view name) const;
};

/// The side inputs of one transform, by the name the transform gave each.
class SideInputs {
 public:
  /// Adds (or replaces) the side input `name`.
  void Set(std::string name, std::shared_ptr<const SideInputValue> value);
  /// The side input `name`; NotFound naming the side inputs there are.
  Result<const SideInputValue*> Get(std::string_view name) const;
  /// The only row of side input `name` (a global combine's result); InvalidArgument when it
  /// does not have exactly one row.
  Result<std::shared_ptr<RecordBatch>> Singleton(std::string_view name) const;

 private:
  std::map<std::string, std::shared_ptr<const SideInputValue>, std::less<>> values_;
};

}  // namespace recflow::pipeline
