// BatchStream: StreamReader → projection → Rebatcher; ConnectStream: a serve client exported as a C stream.
#include "recflow/python/batch_stream.h"

#include <algorithm>

#include "recflow/serve/stream_client.h"

namespace recflow::python {

Result<std::unique_ptr<BatchStream>> BatchStream::Open(ArrowArrayStream* stream, BatchOptions options) {
  ASSIGN_OR_RETURN(std::unique_ptr<c_data::StreamReader> reader, c_data::StreamReader::Open(stream));
  std::optional<ops::Projection> projection;
  if (!options.columns.empty()) {
    ASSIGN_OR_RETURN(ops::Projection select, ops::Projection::Select(reader->schema(), options.columns));
    projection.emplace(std::move(select));
  }
  std::optional<Rebatcher> rebatcher;
  if (options.batch_size.has_value() && options.mode != BatchMode::kAuto) {
    if (*options.batch_size < 1) return Status::InvalidArgument("batch_size must be at least 1");
    rebatcher.emplace(*options.batch_size, options.mode);
  }
  return std::unique_ptr<BatchStream>(
      new BatchStream(std::move(reader), std::move(projection), std::move(rebatcher)));
}

Result<std::shared_ptr<RecordBatch>> BatchStream::NextProjected() {
  ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, reader_->Next());
  if (batch == nullptr || !projection_.has_value()) return batch;
  return projection_->Apply(*batch);
}

Result<std::shared_ptr<RecordBatch>> BatchStream::Next() {
  if (!rebatcher_.has_value()) return NextProjected();
  while (ready_.empty() && !reader_done_) {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, NextProjected());
    std::vector<std::shared_ptr<RecordBatch>> cut;
    if (batch == nullptr) {
      reader_done_ = true;
      ASSIGN_OR_RETURN(cut, rebatcher_->Finish());
    } else {
      ASSIGN_OR_RETURN(cut, rebatcher_->Add(std::move(batch)));
    }
    ready_.assign(cut.rbegin(), cut.rend());
  }
  if (ready_.empty()) return std::shared_ptr<RecordBatch>();
  std::shared_ptr<RecordBatch> next = std::move(ready_.back());
  ready_.pop_back();
  return next;
}

Status ConnectStream(const std::string& endpoint, ArrowArrayStream* out) {
  ASSIGN_OR_RETURN(std::shared_ptr<serve::StreamClient> client, serve::StreamClient::Connect(endpoint));
  const SchemaPtr schema = client->schema();
  return c_data::ExportBatchStream(schema, [client] { return client->Next(); }, out);
}

}  // namespace recflow::python
