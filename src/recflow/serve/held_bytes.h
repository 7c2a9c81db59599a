// HeldBytes: the memory record batches keep alive — every buffer they reference, counted once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "recflow/columnar/record_batch.h"

namespace recflow::serve {

/// Bytes of the buffers `batches` reference (columns, children, dictionaries), each buffer
/// counted once however many arrays or slices share it, and whole however little of it a
/// slice shows: what keeping these batches costs.
int64_t HeldBytes(std::span<const std::shared_ptr<RecordBatch>> batches);

}  // namespace recflow::serve
