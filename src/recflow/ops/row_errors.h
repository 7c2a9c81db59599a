// RowErrors: the rows a batch kernel could not process, so the pipeline applies the step's on_error policy.
#pragma once

#include <cstdint>
#include <vector>

#include "recflow/core/status.h"

namespace recflow::ops {

/// One row a kernel failed on: its index in the kernel's input batch and why.
struct RowError {
  int64_t row = 0;
  Status status;
};

/// Collects per-row failures of one kernel call. A kernel that reports a row still emits a
/// row in that position (null where its output is nullable, otherwise any value); the
/// pipeline then fails, drops or dead-letters the reported rows as the step says.
class RowErrors {
 public:
  /// Records that `row` failed with `status` (which must not be OK).
  void Add(int64_t row, Status status);
  /// No row failed.
  bool empty() const { return errors_.empty(); }
  /// The failures in the order they were added.
  const std::vector<RowError>& errors() const { return errors_; }

 private:
  std::vector<RowError> errors_;
};

}  // namespace recflow::ops
