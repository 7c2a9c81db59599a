// ClientMemoryCap: a Sink in front of a pass's IpcStreamSink that stops the pass once it would hold more memory than
// one client may.
#pragma once

#include <cstdint>
#include <memory>

#include "recflow/formats/arrow_ipc/ipc_stream_sink.h"
#include "recflow/formats/sink.h"

namespace recflow::serve {

/// Feeds `stream` (borrowed) and checks, in Merge (in input order, before the batch joins the
/// rows waiting to fill a batch), that the batch, those waiting rows (HeldBytes: every buffer
/// they keep alive, an IPC message body whole) and the send buffer take at most `limit` bytes;
/// else an OutOfMemory error saying to raise --client-memory-mb, naming the batch's first row
/// counted among the rows fed so far (the input's record when no step drops rows, as in the
/// short form; the stage executor adds the input file).
class ClientMemoryCap final : public Sink {
 public:
  ClientMemoryCap(arrow_ipc::IpcStreamSink* stream, int64_t limit) : stream_(stream), limit_(limit) {}

  Result<std::unique_ptr<SinkLocalState>> NewLocalState() const override { return stream_->NewLocalState(); }
  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState* local,
                                                const std::shared_ptr<RecordBatch>& batch) const override;
  Status Merge(SinkPartial* partial) override;
  Status Process(SinkPartial* partial) const override;
  Status Emit(SinkPartial* partial) override;
  Result<std::unique_ptr<SinkPartial>> Drain() override;
  Status Finish() override { return stream_->Finish(); }
  Status Commit() override { return stream_->Commit(); }
  Status Abort() override { return stream_->Abort(); }

 private:
  arrow_ipc::IpcStreamSink* stream_;
  int64_t limit_;
  int64_t rows_ = 0;  // rows merged so far
};

}  // namespace recflow::serve
