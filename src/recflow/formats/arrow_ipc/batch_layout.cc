// ComputeBatchLayout / CheckBatchLayout / DictionaryValueField: the pre-order node and buffer walk of a schema.
#include "recflow/formats/arrow_ipc/batch_layout.h"

#include <string>

namespace recflow::arrow_ipc {
namespace {

/// Buffers of a field of `type`, its data buffers aside for the views.
int64_t BufferCount(const TypeDesc& type, MetadataVersion version) {
  switch (type.id) {
    case TypeId::kNull:
    case TypeId::kRunEndEncoded:
      return 0;
    case TypeId::kStruct:
    case TypeId::kFixedSizeList:
      return 1;
    case TypeId::kBinary:
    case TypeId::kUtf8:
    case TypeId::kLargeBinary:
    case TypeId::kLargeUtf8:
    case TypeId::kListView:
    case TypeId::kLargeListView:
      return 3;
    case TypeId::kUnion: {
      const int64_t validity = version < MetadataVersion::kV5 ? 1 : 0;
      return validity + (type.union_mode == UnionMode::kDense ? 2 : 1);
    }
    default:  // fixed-width values, and list / large list / map (validity + offsets)
      return 2;
  }
}

void Walk(const FieldDesc& field, MetadataVersion version, std::span<const int64_t> counts, BatchLayout& layout) {
  layout.num_nodes += 1;
  if (field.dictionary) {
    layout.num_buffers += 2;  // validity + indices
    return;
  }
  layout.num_buffers += BufferCount(field.type, version);
  if (field.type.id == TypeId::kBinaryView || field.type.id == TypeId::kUtf8View) {
    const auto index = static_cast<size_t>(layout.num_view_arrays++);
    layout.num_buffers += index < counts.size() ? counts[index] : 0;
  }
  for (const FieldDesc& child : field.children) Walk(child, version, counts, layout);
}

const FieldDesc* FindDictionaryField(std::span<const FieldDesc> fields, int64_t id) {
  for (const FieldDesc& field : fields) {
    if (field.dictionary && field.dictionary->id == id) return &field;
    if (const FieldDesc* found = FindDictionaryField(field.children, id)) return found;
  }
  return nullptr;
}

}  // namespace

BatchLayout ComputeBatchLayout(std::span<const FieldDesc> fields, MetadataVersion version,
                               std::span<const int64_t> variadic_buffer_counts) {
  BatchLayout layout;
  for (const FieldDesc& field : fields) {
    layout.column_nodes.push_back(layout.num_nodes);
    Walk(field, version, variadic_buffer_counts, layout);
  }
  return layout;
}

Result<BatchLayout> CheckBatchLayout(std::span<const FieldDesc> fields, const RecordBatchDesc& batch,
                                     const Message& message) {
  BatchLayout layout = ComputeBatchLayout(fields, message.version, batch.variadic_buffer_counts);
  const auto counts = static_cast<int64_t>(batch.variadic_buffer_counts.size());
  if (counts != layout.num_view_arrays) {
    return message.Error("batch has " + std::to_string(counts) + " variadic buffer counts; the schema has " +
                             std::to_string(layout.num_view_arrays) + " binary or utf8 view arrays",
                         message.offset);
  }
  const auto nodes = static_cast<int64_t>(batch.nodes.size());
  const auto buffers = static_cast<int64_t>(batch.buffers.size());
  if (nodes != layout.num_nodes || buffers != layout.num_buffers) {
    return message.Error("batch has " + std::to_string(nodes) + " field nodes and " + std::to_string(buffers) +
                             " buffers; the schema needs " + std::to_string(layout.num_nodes) + " and " +
                             std::to_string(layout.num_buffers),
                         message.offset);
  }
  return layout;
}

Result<FieldDesc> DictionaryValueField(const SchemaDesc& schema, int64_t id, const Message& message) {
  const FieldDesc* field = FindDictionaryField(schema.fields, id);
  if (field == nullptr) {
    return message.Error("dictionary id " + std::to_string(id) + " is not used by any field", message.offset);
  }
  FieldDesc values = *field;
  values.dictionary.reset();
  return values;
}

}  // namespace recflow::arrow_ipc
