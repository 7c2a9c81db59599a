// BatchStream: StreamReader → projection → Rebatcher; ConnectStream: a serve client exported as a C stream.
#include "recflow/python/batch_stream.h"

#include <algorithm>

#include "recflow/serve/stream_client.h"

namespace recflow::python {

Result<std::unique_ptr<BatchStream>> BatchStream::Open(ArrowArrayStream* stream, BatchOptions options) {
  ASSIGN_OR_RETURN(std::unique_ptr<c_data::StreamReader> reader, c_data::StreamReader::Open(stream));
  SchemaPtr schema = reader->schema();
  std::vector<int> columns;
  if (!options.columns.empty()) {
    std::vector<FieldPtr> fields;
    for (const std::string& name : options.columns) {
      const int index = schema->GetFieldIndex(name);
      if (index < 0) {
        return Status::InvalidArgument("no column '" + name + "' to select; the columns are " + schema->ToString());
      }
      columns.push_back(index);
      fields.push_back(schema->field(index));
    }
    schema = Schema::Make(std::move(fields), schema->metadata());
  }
  std::optional<Rebatcher> rebatcher;
  if (options.batch_size.has_value() && options.mode != BatchMode::kAuto) {
    if (*options.batch_size < 1) return Status::InvalidArgument("batch_size must be at least 1");
    rebatcher.emplace(*options.batch_size, options.mode);
  }
  return std::unique_ptr<BatchStream>(
      new BatchStream(std::move(reader), std::move(schema), std::move(columns), std::move(rebatcher)));
}

Result<std::shared_ptr<RecordBatch>> BatchStream::NextProjected() {
  ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, reader_->Next());
  if (batch == nullptr || columns_.empty()) return batch;
  std::vector<std::shared_ptr<ArrayData>> picked;
  picked.reserve(columns_.size());
  for (const int index : columns_) picked.push_back(batch->column_data(index));
  return RecordBatch::Make(schema_, batch->num_rows(), std::move(picked));
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
