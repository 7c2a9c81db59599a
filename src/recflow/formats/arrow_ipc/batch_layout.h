// BatchLayout: how many field nodes and buffers a batch of a schema carries, and the check that a batch matches.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/batch_desc.h"
#include "recflow/formats/arrow_ipc/message.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc {

/// The node and buffer counts of a batch of some fields (the pre-order walk of the spec).
struct BatchLayout {
  /// Field nodes in the batch.
  int64_t num_nodes = 0;
  /// Buffers in the batch.
  int64_t num_buffers = 0;
  /// Index into RecordBatchDesc::nodes of each top-level field's node.
  std::vector<int64_t> column_nodes;
  /// binary_view / utf8_view arrays in the batch: each has an entry of variadicBufferCounts.
  int64_t num_view_arrays = 0;
};

/// The layout of a batch of `fields` in metadata version `version`: each field takes one node
/// and, by type, 0 (null, run-end encoded), 1 (struct, fixed-size list), 2 (fixed-width values,
/// list, large list, map), 3 (binary, utf8 and their large forms, list views) buffers; a union
/// takes 1 (sparse) or 2 (dense) buffers in V5 and one validity buffer more before V5; the view
/// arrays take 2 and as many data buffers as their entry of `variadic_buffer_counts` says (0
/// where the counts run out). A dictionary-encoded field is one node and two buffers of
/// indices; its value children live in the dictionary batches.
BatchLayout ComputeBatchLayout(std::span<const FieldDesc> fields, MetadataVersion version,
                               std::span<const int64_t> variadic_buffer_counts = {});

/// DataError (naming the message) unless `batch` has exactly the nodes, buffers and variadic
/// buffer counts a batch of `fields` needs. On success returns the layout.
Result<BatchLayout> CheckBatchLayout(std::span<const FieldDesc> fields, const RecordBatchDesc& batch,
                                     const Message& message);

/// The field holding the values of dictionary `id`: a dictionary-encoded field of `schema`
/// (at any depth) with its dictionary encoding removed; a DataError naming
/// `message` when no field uses `id`.
Result<FieldDesc> DictionaryValueField(const SchemaDesc& schema, int64_t id, const Message& message);

}  // namespace recflow::arrow_ipc
