// IpcStreamSink: a Sink writing its rows as one Arrow IPC stream to an OutputStream (a socket, stdout, a descriptor).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "recflow/columnar/rebatcher.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/formats/sink.h"

namespace recflow::arrow_ipc {

class DictionaryTracker;

/// Rows per batch of a stream written for a consumer that did not ask for a size: IpcStreamSink's
/// default, and so `recflow serve`'s (ServeOptions::batch_size, --batch-size). Clients that cut
/// their own training batches (TensorFlow I/O's ArrowStreamDataset with its default batch_mode
/// keep_remainder, a PyTorch DataLoader over the stream) pay per message, not per row, so fewer,
/// larger messages serve them faster: measured over 4 M numeric rows, Arrow JS reads 1.8× faster
/// at 16 384 rows than at 1024 and C++ decoding is fastest there; 65 536 rows gain Arrow JS a
/// little more but would put rows of 1 KiB at serve's 64 MiB per-client cap (the rows waiting to
/// fill a batch count there), where 16 384 leaves room for rows of 4 KiB. A client that takes the
/// server's batches as its training batches (TensorFlow I/O's batch_mode auto) sets the size
/// itself. See docs/serve.md ("Batch size") and BENCHMARKS.md.
inline constexpr int64_t kDefaultStreamBatchRows = 16384;

/// How an IpcStreamSink cuts and encodes its batches.
struct IpcStreamSinkOptions {
  int64_t batch_rows = kDefaultStreamBatchRows;  ///< rows per batch (ignored by BatchMode::kAuto)
  BatchMode batch_mode = BatchMode::kKeepRemainder;
  IpcWriteOptions ipc;                         ///< body compression
};

/// Writes the rows it is fed as one IPC stream, byte for byte what IpcWriter::OpenStream writes
/// for the same batches after rebatching: the schema message when opened; Merge (in order) cuts
/// the rows into batches of `batch_rows` (Rebatcher) and plans their dictionary batches
/// (first use, delta or replacement); Process encodes the messages (bodies compressed) on any
/// thread; Emit writes them in order in one gathered write (OutputStream::WriteGathered), the
/// bodies uncopied; Finish writes end-of-stream and flushes. The bytes depend on the rows and their order only, never on the thread count.
/// A failed write makes every later Emit and Finish return that error (nothing more is written).
class IpcStreamSink final : public Sink {
 public:
  /// Writes the schema message of `schema` to `out` (borrowed; it must outlive the sink).
  static Result<std::unique_ptr<IpcStreamSink>> Open(OutputStream* out, SchemaPtr schema,
                                                     const IpcStreamSinkOptions& options);
  ~IpcStreamSink() override;

  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState* local,
                                                const std::shared_ptr<RecordBatch>& batch) const override;
  Status Merge(SinkPartial* partial) override;
  Status Process(SinkPartial* partial) const override;
  Status Emit(SinkPartial* partial) override;
  Result<std::unique_ptr<SinkPartial>> Drain() override;
  /// Writes end-of-stream and flushes `out` (does not close it). Once; later calls do nothing.
  Status Finish() override;

  /// The rows merged and waiting to fill a batch, as slices of the batches they came from.
  const std::vector<std::shared_ptr<RecordBatch>>& pending() const { return rebatcher_.pending(); }
  /// Bytes written to `out` so far.
  int64_t bytes_written() const { return out_->position() - start_; }

 private:
  IpcStreamSink(OutputStream* out, SchemaPtr schema, const IpcStreamSinkOptions& options);
  /// `st`, remembered when it is the first failure of `out`.
  Status Remember(Status st);

  OutputStream* out_;
  SchemaPtr schema_;
  IpcWriteOptions ipc_;
  int64_t start_;
  Rebatcher rebatcher_;
  std::unique_ptr<DictionaryTracker> dictionaries_;  // what the stream holds so far
  bool finished_ = false;
  Status error_;  // the first failed write: the stream is cut there
};

}  // namespace recflow::arrow_ipc
