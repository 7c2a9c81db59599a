// The Arrow C Stream Interface: record batches pulled through an ArrowArrayStream, both ways.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "recflow/columnar/c_data_abi.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow::c_data {

/// Produces the next batch, or nullptr at the end.
using BatchSource = std::function<Result<std::shared_ptr<RecordBatch>>()>;

/// Fills `out` with a stream of `schema` whose get_next calls `next` (on the consumer's
/// thread). A batch whose schema differs from `schema`, or an error of `next`, makes get_next
/// return EIO with the message in get_last_error; the stream then stays failed.
Status ExportBatchStream(SchemaPtr schema, BatchSource next, ArrowArrayStream* out);

/// Reads a producer's ArrowArrayStream.
class StreamReader {
 public:
  /// Takes over `stream` (its release is set to NULL) and reads its schema.
  static Result<std::unique_ptr<StreamReader>> Open(ArrowArrayStream* stream);
  ~StreamReader();
  StreamReader(const StreamReader&) = delete;
  StreamReader& operator=(const StreamReader&) = delete;

  /// The stream's schema.
  const SchemaPtr& schema() const { return schema_; }
  /// The next batch (ImportRecordBatch, validated), or nullptr at the end. A producer error is
  /// an IOError whose message is its get_last_error text (as the producer words it), else one
  /// naming the call and the error code.
  Result<std::shared_ptr<RecordBatch>> Next();

 private:
  StreamReader() = default;
  Status ProducerError(int code, const char* what);

  ArrowArrayStream stream_{};
  SchemaPtr schema_;
};

}  // namespace recflow::c_data
