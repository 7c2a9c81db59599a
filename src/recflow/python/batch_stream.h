// BatchStream: the consumer side of an Arrow C stream for Python — batches imported, columns selected, re-cut to a
// batch size — and the stream of a `recflow serve` endpoint.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "recflow/columnar/c_data_abi.h"
#include "recflow/columnar/c_stream.h"
#include "recflow/columnar/rebatcher.h"
#include "recflow/core/result.h"
#include "recflow/ops/columns/select.h"

namespace recflow::python {

/// How a BatchStream hands out its batches.
struct BatchOptions {
  /// The columns to keep, in this order; empty: every column.
  std::vector<std::string> columns;
  /// Rows per batch (>= 1), with `mode`; std::nullopt: the batches as the producer cuts them.
  std::optional<int64_t> batch_size;
  /// kKeepRemainder: the last batch may be short; kDropRemainder: it is dropped; kAuto: batches
  /// as they come (batch_size ignored).
  BatchMode mode = BatchMode::kKeepRemainder;
};

/// Batches pulled from a producer's ArrowArrayStream (c_data::StreamReader: imported without
/// copying, validated), projected on BatchOptions::columns (zero-copy) and re-cut by a Rebatcher.
/// One consumer thread at a time.
class BatchStream {
 public:
  /// Takes over `stream`; InvalidArgument naming a column `options` asks for that the stream's
  /// schema lacks, or for a batch_size below 1.
  static Result<std::unique_ptr<BatchStream>> Open(ArrowArrayStream* stream, BatchOptions options);

  /// The schema of every batch Next returns.
  const SchemaPtr& schema() const { return projection_ ? projection_->output_schema() : reader_->schema(); }

  /// The next batch, or nullptr at the end. The producer's error (the file, record and offset
  /// its run failed at) as an IOError with its text.
  Result<std::shared_ptr<RecordBatch>> Next();

 private:
  BatchStream(std::unique_ptr<c_data::StreamReader> reader, std::optional<ops::Projection> projection,
              std::optional<Rebatcher> rebatcher)
      : reader_(std::move(reader)), projection_(std::move(projection)), rebatcher_(std::move(rebatcher)) {}

  /// The reader's next batch through projection_ (the `select` step's); nullptr at its end.
  Result<std::shared_ptr<RecordBatch>> NextProjected();

  std::unique_ptr<c_data::StreamReader> reader_;
  std::optional<ops::Projection> projection_;  ///< BatchOptions::columns; none: every column, unchanged
  std::optional<Rebatcher> rebatcher_;
  std::vector<std::shared_ptr<RecordBatch>> ready_;  ///< cut batches not handed out yet, in reverse order
  bool reader_done_ = false;
};

/// Fills `out` with the stream of one pass of the `recflow serve` server at `endpoint`
/// (serve::StreamClient: tcp://HOST:PORT, HOST:PORT, unix://PATH), pulled from the socket on the
/// consumer's thread. IOError when the server cannot be reached or refuses.
Status ConnectStream(const std::string& endpoint, ArrowArrayStream* out);

}  // namespace recflow::python
