// Building the Schema flatbuffer of recflow fields, and locating their dictionary-encoded arrays.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/columnar/schema.h"
#include "recflow/formats/arrow_ipc/flatbuf_internal.h"

namespace recflow::arrow_ipc {

/// A dictionary-encoded array of a schema: its id and how to reach it in a batch.
struct DictionaryField {
  int64_t id = 0;
  /// Steps from the batch: the column index first, then child indices; kDictionaryStep moves
  /// into a dictionary's values (for dictionaries nested in dictionary values).
  std::vector<int> path;
  /// The type of the dictionary's values.
  DataTypePtr value_type;
};

/// The path step that moves from a dictionary array to its values.
inline constexpr int kDictionaryStep = -1;

/// Builds `schema` as a Schema table in `fbb` (little-endian, custom metadata kept) and lists its
/// dictionary-encoded arrays, numbered 0, 1, ... in depth-first field order.
flatbuffers::Offset<fb::Schema> BuildSchema(flatbuffers::FlatBufferBuilder& fbb, const Schema& schema,
                                            std::vector<DictionaryField>* dictionaries);

/// The dictionary-encoded arrays of `schema`, as BuildSchema lists them.
std::vector<DictionaryField> ListDictionaries(const Schema& schema);

/// The array `path` leads to in `batch` (a DictionaryField's array; its dictionary holds the values).
const ArrayData& ArrayAtPath(const RecordBatch& batch, const std::vector<int>& path);

}  // namespace recflow::arrow_ipc
