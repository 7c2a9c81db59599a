// HeldBytes: the memory record batches keep alive — every buffer they reference, counted once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "recflow/columnar/record_batch.h"

namespace recflow::serve {

/// Bytes of the memory `batches` keep alive through their buffers (columns, children,
/// dictionaries): the whole allocation each buffer shows (Buffer::root(): an IPC message body
/// for a column read from a stream, however little of it the batch uses), counted once however
/// many arrays, slices and buffers share it. A slice of a memory-mapped file counts only its
/// own bytes (file pages, not heap memory). What keeping these batches costs.
int64_t HeldBytes(std::span<const std::shared_ptr<RecordBatch>> batches);

}  // namespace recflow::serve
