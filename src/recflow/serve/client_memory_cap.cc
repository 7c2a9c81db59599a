// ClientMemoryCap: HeldBytes of the batch and of the stream's waiting rows, plus the send buffer, against the cap.
#include "recflow/serve/client_memory_cap.h"

#include <cstdio>

#include "recflow/serve/held_bytes.h"
#include "recflow/serve/socket_stream.h"

namespace recflow::serve {

namespace {

/// The batch (null for what the stream drains) and the stream's partial for it.
struct CappedPartial final : SinkPartial {
  std::shared_ptr<RecordBatch> batch;
  std::unique_ptr<SinkPartial> inner;
};

std::string Mebibytes(int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

SinkPartial* Inner(SinkPartial* partial) { return static_cast<CappedPartial*>(partial)->inner.get(); }

}  // namespace

Result<std::unique_ptr<SinkPartial>> ClientMemoryCap::Consume(SinkLocalState* local,
                                                               const std::shared_ptr<RecordBatch>& batch) const {
  auto partial = std::make_unique<CappedPartial>();
  ASSIGN_OR_RETURN(partial->inner, stream_->Consume(local, batch));
  partial->batch = batch;
  return std::unique_ptr<SinkPartial>(std::move(partial));
}

Status ClientMemoryCap::Merge(SinkPartial* partial) {
  auto& p = static_cast<CappedPartial&>(*partial);
  std::vector<std::shared_ptr<RecordBatch>> held = stream_->pending();
  const int64_t first_row = rows_;
  rows_ += p.batch->num_rows();
  held.push_back(std::move(p.batch));
  const int64_t bytes = HeldBytes(held) + FdOutputStream::kGatherBytes;
  if (bytes > limit_) {
    return Status::OutOfMemory("this pass would hold " + Mebibytes(bytes) +
                               " (the rows read, the rows waiting to fill a batch and the send buffer), more than the " +
                               Mebibytes(limit_) + " one client may hold: raise --client-memory-mb")
        .WithRecord(first_row);
  }
  return stream_->Merge(p.inner.get());
}

Status ClientMemoryCap::Process(SinkPartial* partial) const { return stream_->Process(Inner(partial)); }

Status ClientMemoryCap::Emit(SinkPartial* partial) { return stream_->Emit(Inner(partial)); }

Result<std::unique_ptr<SinkPartial>> ClientMemoryCap::Drain() {
  ASSIGN_OR_RETURN(auto inner, stream_->Drain());
  if (inner == nullptr) return std::unique_ptr<SinkPartial>();
  auto partial = std::make_unique<CappedPartial>();
  partial->inner = std::move(inner);
  return std::unique_ptr<SinkPartial>(std::move(partial));
}

}  // namespace recflow::serve
