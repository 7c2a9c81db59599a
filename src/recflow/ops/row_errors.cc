// RowErrors: the failed rows of one kernel call.
#include "recflow/ops/row_errors.h"

#include <utility>

namespace recflow::ops {

void RowErrors::Add(int64_t row, Status status) { errors_.push_back(RowError{row, std::move(status)}); }

}  // namespace recflow::ops
