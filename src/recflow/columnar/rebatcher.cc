// Rebatcher: pending slices joined with Concatenate when a batch spans input batches.
#include "recflow/columnar/rebatcher.h"

#include <algorithm>

#include "recflow/columnar/concatenate.h"

namespace recflow {

Result<BatchMode> ParseBatchMode(std::string_view name) {
  if (name == "keep_remainder") return BatchMode::kKeepRemainder;
  if (name == "drop_remainder") return BatchMode::kDropRemainder;
  if (name == "auto") return BatchMode::kAuto;
  return Status::InvalidArgument("unknown batch mode '" + std::string(name) + "' (keep_remainder, drop_remainder, auto)");
}

Result<std::shared_ptr<RecordBatch>> Rebatcher::Take(int64_t rows) {
  std::vector<std::shared_ptr<RecordBatch>> parts;
  int64_t taken = 0;
  while (taken < rows) {
    std::shared_ptr<RecordBatch>& front = pending_.front();
    const int64_t n = std::min(rows - taken, front->num_rows());
    parts.push_back(n == front->num_rows() ? front : front->Slice(0, n));
    if (n == front->num_rows()) {
      pending_.erase(pending_.begin());
    } else {
      front = front->Slice(n, front->num_rows() - n);
    }
    taken += n;
  }
  pending_rows_ -= rows;
  return ConcatenateBatches(parts[0]->schema(), parts);
}

Result<std::vector<std::shared_ptr<RecordBatch>>> Rebatcher::Add(std::shared_ptr<RecordBatch> batch) {
  std::vector<std::shared_ptr<RecordBatch>> out;
  if (batch->num_rows() == 0) return out;
  if (mode_ == BatchMode::kAuto) {
    out.push_back(std::move(batch));
    return out;
  }
  pending_rows_ += batch->num_rows();
  pending_.push_back(std::move(batch));
  while (pending_rows_ >= batch_size_) {
    ASSIGN_OR_RETURN(auto next, Take(batch_size_));
    out.push_back(std::move(next));
  }
  return out;
}

Result<std::vector<std::shared_ptr<RecordBatch>>> Rebatcher::Finish() {
  std::vector<std::shared_ptr<RecordBatch>> out;
  if (mode_ == BatchMode::kKeepRemainder && pending_rows_ > 0) {
    ASSIGN_OR_RETURN(auto last, Take(pending_rows_));
    out.push_back(std::move(last));
  }
  pending_.clear();
  pending_rows_ = 0;
  return out;
}

}  // namespace recflow
