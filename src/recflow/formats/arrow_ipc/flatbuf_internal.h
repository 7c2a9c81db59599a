// Access to the flatc-generated Arrow metadata tables of verified messages (private to arrow_ipc).
#pragma once

#include <cstdint>
#include <string>

#include "recflow/formats/arrow_ipc/fbs/file_generated.h"
#include "recflow/formats/arrow_ipc/fbs/message_generated.h"
#include "recflow/formats/arrow_ipc/fbs/schema_generated.h"
#include "recflow/formats/arrow_ipc/framing.h"
#include "recflow/formats/arrow_ipc/message.h"

namespace recflow::arrow_ipc {

namespace fb = ::org::apache::arrow::flatbuf;

/// Where a metadata flatbuffer came from, for DataErrors.
struct ErrorSite {
  std::string name;
  int64_t offset = 0;
  /// A DataError "arrow ipc: <what>" naming the input and the offset.
  Status Error(const std::string& what) const {
    return Status::DataError("arrow ipc: " + what).WithFile(name).WithOffset(offset);
  }
};

/// A verifier with recflow's depth and table-count limits for `size` bytes at `data`.
inline flatbuffers::Verifier MakeVerifier(const uint8_t* data, int64_t size) {
  return flatbuffers::Verifier(data, static_cast<size_t>(size), kMaxFlatbufferDepth, kMaxFlatbufferTables);
}

/// The root table of a message built by the MessageReader (which verified it).
inline const fb::Message* FlatbufMessage(const Message& message) {
  return fb::GetMessage(message.metadata->data());
}

}  // namespace recflow::arrow_ipc
