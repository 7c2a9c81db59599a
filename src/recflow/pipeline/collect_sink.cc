// CollectSink: batches kept in input order.
#include "recflow/pipeline/collect_sink.h"

namespace recflow::pipeline {

namespace {

struct KeptBatch final : SinkPartial {
  std::shared_ptr<RecordBatch> batch;
};

}  // namespace

Result<std::unique_ptr<SinkPartial>> CollectSink::Consume(SinkLocalState*,
                                                          const std::shared_ptr<RecordBatch>& batch) const {
  auto partial = std::make_unique<KeptBatch>();
  partial->batch = batch;
  return std::unique_ptr<SinkPartial>(std::move(partial));
}

Status CollectSink::Merge(SinkPartial* partial) {
  batches_.push_back(std::move(static_cast<KeptBatch*>(partial)->batch));
  return Status::OK();
}

}  // namespace recflow::pipeline
