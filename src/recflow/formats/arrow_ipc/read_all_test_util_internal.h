// Test support: every decoded batch of an in-memory IPC stream or file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/formats/arrow_ipc/ipc_file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"

namespace recflow::arrow_ipc::testing {

/// The record batches of `bytes` read as an IPC file (`file`) or stream named `name`, in
/// order; the first error otherwise.
inline Result<std::vector<std::shared_ptr<RecordBatch>>> ReadAllBatches(std::shared_ptr<Buffer> bytes,
                                                                        const std::string& name, bool file) {
  std::vector<std::shared_ptr<RecordBatch>> out;
  if (file) {
    ASSIGN_OR_RETURN(auto reader, IpcFileReader::Open(std::move(bytes), name));
    for (int i = 0; i < reader->num_batches(); ++i) {
      ASSIGN_OR_RETURN(auto batch, reader->ReadBatch(i));
      out.push_back(std::move(batch));
    }
    return out;
  }
  ASSIGN_OR_RETURN(auto reader, IpcStreamReader::Open(std::move(bytes), name));
  while (true) {
    ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (batch == nullptr) return out;
    out.push_back(std::move(batch));
  }
}

}  // namespace recflow::arrow_ipc::testing
