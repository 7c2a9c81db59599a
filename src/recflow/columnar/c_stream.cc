// ExportBatchStream's callbacks over a BatchSource, and StreamReader over a foreign stream.
#include "recflow/columnar/c_stream.h"

#include <cerrno>
#include <cstring>

#include "recflow/columnar/c_data.h"

namespace recflow::c_data {

namespace {

/// What an exported stream owns.
struct StreamPrivate {
  SchemaPtr schema;
  BatchSource next;
  std::string last_error;
};

StreamPrivate* Owned(ArrowArrayStream* stream) { return static_cast<StreamPrivate*>(stream->private_data); }

int Fail(StreamPrivate* owned, const Status& st) {
  owned->last_error = st.ToString();
  owned->next = nullptr;
  return EIO;
}

int GetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  StreamPrivate* owned = Owned(stream);
  const Status st = ExportSchema(*owned->schema, out);
  return st.ok() ? 0 : Fail(owned, st);
}

int GetNext(ArrowArrayStream* stream, ArrowArray* out) {
  StreamPrivate* owned = Owned(stream);
  if (owned->next == nullptr) {
    if (!owned->last_error.empty()) return EIO;
    out->release = nullptr;  // the end
    return 0;
  }
  Result<std::shared_ptr<RecordBatch>> batch = owned->next();
  if (!batch.ok()) return Fail(owned, batch.status());
  if (*batch == nullptr) {
    owned->next = nullptr;
    out->release = nullptr;
    return 0;
  }
  if (!(*batch)->schema()->Equals(*owned->schema)) {
    return Fail(owned, Status::InvalidArgument("batch schema " + (*batch)->schema()->ToString() +
                                               " differs from the stream's " + owned->schema->ToString()));
  }
  const Status st = ExportRecordBatch(**batch, out);
  return st.ok() ? 0 : Fail(owned, st);
}

const char* GetLastError(ArrowArrayStream* stream) {
  StreamPrivate* owned = Owned(stream);
  return owned->last_error.empty() ? nullptr : owned->last_error.c_str();
}

void Release(ArrowArrayStream* stream) {
  delete Owned(stream);
  stream->release = nullptr;
}

}  // namespace

Status ExportBatchStream(SchemaPtr schema, BatchSource next, ArrowArrayStream* out) {
  if (schema == nullptr || next == nullptr) return Status::InvalidArgument("a stream needs a schema and a source");
  out->get_schema = GetSchema;
  out->get_next = GetNext;
  out->get_last_error = GetLastError;
  out->release = Release;
  out->private_data = new StreamPrivate{std::move(schema), std::move(next), {}};
  return Status::OK();
}

Result<std::unique_ptr<StreamReader>> StreamReader::Open(ArrowArrayStream* stream) {
  if (stream == nullptr || stream->release == nullptr) return Status::InvalidArgument("NULL or released stream");
  std::unique_ptr<StreamReader> reader(new StreamReader());
  reader->stream_ = *stream;
  stream->release = nullptr;
  ArrowSchema schema{};
  const int code = reader->stream_.get_schema(&reader->stream_, &schema);
  if (code != 0) return reader->ProducerError(code, "get_schema");
  ASSIGN_OR_RETURN(reader->schema_, ImportSchema(&schema));
  return reader;
}

StreamReader::~StreamReader() {
  if (stream_.release != nullptr) stream_.release(&stream_);
}

Status StreamReader::ProducerError(int code, const char* what) {
  // A producer's message says what failed (a recflow run's names the file, record and offset), as the producer
  // would print it; the stream's words are for a producer that gives none.
  const char* message = stream_.get_last_error != nullptr ? stream_.get_last_error(&stream_) : nullptr;
  if (message != nullptr && *message != '\0') return Status::IOError(message);
  return Status::IOError(std::string("stream ") + what + " failed (" + std::strerror(code) + ")");
}

Result<std::shared_ptr<RecordBatch>> StreamReader::Next() {
  ArrowArray array{};
  const int code = stream_.get_next(&stream_, &array);
  if (code != 0) return ProducerError(code, "get_next");
  if (array.release == nullptr) return std::shared_ptr<RecordBatch>();
  return ImportRecordBatch(&array, schema_);
}

}  // namespace recflow::c_data
