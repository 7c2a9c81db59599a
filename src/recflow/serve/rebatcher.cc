// Rebatcher: pending slices joined with Concatenate when a batch spans input batches.
#include "recflow/serve/rebatcher.h"

#include <algorithm>

#include "recflow/columnar/concatenate.h"

namespace recflow::serve {

namespace {

std::shared_ptr<RecordBatch> SliceRows(const RecordBatch& batch, int64_t offset, int64_t length) {
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (int c = 0; c < batch.num_columns(); ++c) columns.push_back(batch.column_data(c)->Slice(offset, length));
  return std::make_shared<RecordBatch>(batch.schema(), length, std::move(columns));
}

}  // namespace

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
    parts.push_back(n == front->num_rows() ? front : SliceRows(*front, 0, n));
    if (n == front->num_rows()) {
      pending_.erase(pending_.begin());
    } else {
      front = SliceRows(*front, n, front->num_rows() - n);
    }
    taken += n;
  }
  pending_rows_ -= rows;
  if (parts.size() == 1) return parts[0];
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (int c = 0; c < parts[0]->num_columns(); ++c) {
    std::vector<std::shared_ptr<ArrayData>> pieces;
    for (const auto& part : parts) pieces.push_back(part->column_data(c));
    ASSIGN_OR_RETURN(auto column, Concatenate(pieces));
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(parts[0]->schema(), rows, std::move(columns));
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

}  // namespace recflow::serve
