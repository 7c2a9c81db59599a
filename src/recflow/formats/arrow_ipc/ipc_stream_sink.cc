// IpcStreamSink: rebatching and dictionary planning in order, message encoding in parallel, gathered writes in order.
#include "recflow/formats/arrow_ipc/ipc_stream_sink.h"

#include "recflow/formats/arrow_ipc/dictionary_plan_internal.h"
#include "recflow/formats/arrow_ipc/message_writer.h"
#include "recflow/formats/arrow_ipc/schema_writer_internal.h"

namespace recflow::arrow_ipc {

namespace {

/// Batches on their way to the stream: the input batch (Consume), then the complete batches
/// cut from the rows merged so far with their dictionary updates (Merge), then their messages
/// (Process), which point into those batches and updates.
struct IpcPartial final : SinkPartial {
  std::shared_ptr<RecordBatch> input;
  std::vector<std::shared_ptr<RecordBatch>> batches;
  std::vector<std::vector<DictionaryUpdate>> updates;  // per batch
  std::vector<EncodedBatchMessages> messages;          // per batch
};

/// Plans the dictionaries of `batches` (complete, in order) with `tracker` into `partial`.
Status PlanBatches(DictionaryTracker& tracker, std::vector<std::shared_ptr<RecordBatch>> batches,
                   IpcPartial* partial) {
  for (auto& batch : batches) {
    ASSIGN_OR_RETURN(DictionaryPlan plan, tracker.Plan(*batch));
    partial->updates.push_back(std::move(plan.updates));
    partial->batches.push_back(std::move(batch));
  }
  return Status::OK();
}

}  // namespace

IpcStreamSink::IpcStreamSink(OutputStream* out, SchemaPtr schema, const IpcStreamSinkOptions& options)
    : out_(out),
      schema_(std::move(schema)),
      ipc_(options.ipc),
      start_(out->position()),
      rebatcher_(options.batch_rows, options.batch_mode),
      dictionaries_(std::make_unique<DictionaryTracker>(*schema_, ListDictionaries(*schema_), DictionaryChange::kReplace)) {}

IpcStreamSink::~IpcStreamSink() = default;

Result<std::unique_ptr<IpcStreamSink>> IpcStreamSink::Open(OutputStream* out, SchemaPtr schema,
                                                           const IpcStreamSinkOptions& options) {
  RETURN_NOT_OK(options.ipc.Validate());
  if (out == nullptr || schema == nullptr) return Status::InvalidArgument("an IPC stream sink needs an output and a schema");
  if (options.batch_mode != BatchMode::kAuto && options.batch_rows < 1) {
    return Status::InvalidArgument("batch size must be at least 1");
  }
  auto sink = std::unique_ptr<IpcStreamSink>(new IpcStreamSink(out, std::move(schema), options));
  const std::string schema_message = EncodeSchemaMessage(*sink->schema_);
  RETURN_NOT_OK(out->Write(schema_message.data(), static_cast<int64_t>(schema_message.size())));
  return sink;
}

Result<std::unique_ptr<SinkPartial>> IpcStreamSink::Consume(SinkLocalState* /*local*/,
                                                             const std::shared_ptr<RecordBatch>& batch) const {
  if (!batch->schema()->Equals(*schema_)) {
    return Status::InvalidArgument("batch schema " + batch->schema()->ToString() + " differs from the stream's " +
                                   schema_->ToString());
  }
  auto partial = std::make_unique<IpcPartial>();
  partial->input = batch;
  return std::unique_ptr<SinkPartial>(std::move(partial));
}

Status IpcStreamSink::Merge(SinkPartial* partial) {
  auto& p = static_cast<IpcPartial&>(*partial);
  ASSIGN_OR_RETURN(auto ready, rebatcher_.Add(std::move(p.input)));
  return PlanBatches(*dictionaries_, std::move(ready), &p);
}

Status IpcStreamSink::Process(SinkPartial* partial) const {
  auto& p = static_cast<IpcPartial&>(*partial);
  p.messages.reserve(p.batches.size());
  for (size_t b = 0; b < p.batches.size(); ++b) {
    ASSIGN_OR_RETURN(EncodedBatchMessages messages, EncodeBatch(p.updates[b], *p.batches[b], ipc_));
    p.messages.push_back(std::move(messages));
  }
  return Status::OK();
}

Status IpcStreamSink::Remember(Status st) {
  if (!st.ok() && error_.ok()) error_ = st;
  return st;
}

Status IpcStreamSink::Emit(SinkPartial* partial) {
  RETURN_NOT_OK(error_);
  auto& p = static_cast<IpcPartial&>(*partial);
  return Remember(WriteBatches(p.messages, out_));
}

Result<std::unique_ptr<SinkPartial>> IpcStreamSink::Drain() {
  ASSIGN_OR_RETURN(auto rest, rebatcher_.Finish());
  if (rest.empty()) return std::unique_ptr<SinkPartial>();
  auto partial = std::make_unique<IpcPartial>();
  RETURN_NOT_OK(PlanBatches(*dictionaries_, std::move(rest), partial.get()));
  return std::unique_ptr<SinkPartial>(std::move(partial));
}

Status IpcStreamSink::Finish() {
  RETURN_NOT_OK(error_);
  if (finished_) return Status::OK();
  finished_ = true;
  const std::string tail = EncodeEndOfStream();
  RETURN_NOT_OK(Remember(out_->Write(tail.data(), static_cast<int64_t>(tail.size()))));
  return Remember(out_->Flush());
}

}  // namespace recflow::arrow_ipc
