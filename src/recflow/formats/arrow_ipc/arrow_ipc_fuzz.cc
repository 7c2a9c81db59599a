// libFuzzer target: read arbitrary bytes as an Arrow IPC stream (from memory and through an InputStream) and as an IPC file, metadata and decoded batches.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_read_options.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/stream_reader.h"

namespace {

using recflow::arrow_ipc::BatchMessage;

// Every buffer a descriptor reports lies inside its message body; anything else is a bug.
void CheckBatch(const BatchMessage& batch) {
  const auto& desc = batch.record_batch ? *batch.record_batch : batch.dictionary->data;
  for (const auto& buffer : desc.buffers) {
    if (buffer.offset < 0 || buffer.length < 0 || buffer.offset + buffer.length > batch.message.body->size()) {
      __builtin_trap();
    }
  }
  if (static_cast<int64_t>(desc.nodes.size()) != batch.layout.num_nodes) __builtin_trap();
}

void WalkStream(std::unique_ptr<recflow::arrow_ipc::MessageReader> messages) {
  auto reader = recflow::arrow_ipc::StreamReader::Open(std::move(messages));
  if (!reader.ok()) return;
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok() || !*batch) return;
    CheckBatch(**batch);
  }
}

// A decoded batch always passes full validation; anything else is a bug.
void CheckDecoded(const std::shared_ptr<recflow::RecordBatch>& batch) {
  if (!batch->ValidateFull().ok()) __builtin_trap();
}

// Decodes every batch of the stream in memory and of the file, as recflow RecordBatches, with
// decompression capped well under libFuzzer's memory limit.
void Decode(const std::shared_ptr<recflow::Buffer>& buffer) {
  recflow::arrow_ipc::IpcReadOptions options = recflow::arrow_ipc::IpcReadOptions::Defaults();
  options.max_decompressed_batch_bytes = int64_t{64} << 20;
  if (auto reader = recflow::arrow_ipc::IpcStreamReader::Open(buffer, "fuzz", options); reader.ok()) {
    while (true) {
      auto batch = (*reader)->Next();
      if (!batch.ok() || *batch == nullptr) break;
      CheckDecoded(*batch);
    }
  }
  if (auto reader = recflow::arrow_ipc::IpcFileReader::Open(buffer, "fuzz", options); reader.ok()) {
    for (int i = 0; i < (*reader)->num_batches(); ++i) {
      if (auto batch = (*reader)->ReadBatch(i); batch.ok()) CheckDecoded(*batch);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto buffer = recflow::Buffer::Wrap(data, static_cast<int64_t>(size));
  Decode(buffer);
  if (auto messages = recflow::arrow_ipc::MessageReader::FromBuffer(buffer, "fuzz"); messages.ok()) {
    WalkStream(std::move(*messages));
  }
  auto stream = std::make_unique<recflow::BufferInputStream>(buffer, "fuzz");
  if (auto messages = recflow::arrow_ipc::MessageReader::FromStream(std::move(stream)); messages.ok()) {
    WalkStream(std::move(*messages));
  }
  auto file = recflow::arrow_ipc::FileReader::Open(buffer, "fuzz");
  if (!file.ok()) return 0;
  for (int i = 0; i < (*file)->num_dictionaries(); ++i) {
    if (auto batch = (*file)->ReadDictionary(i); batch.ok()) CheckBatch(*batch);
  }
  for (int i = 0; i < (*file)->num_record_batches(); ++i) {
    if (auto batch = (*file)->ReadRecordBatch(i); batch.ok()) CheckBatch(*batch);
  }
  return 0;
}
