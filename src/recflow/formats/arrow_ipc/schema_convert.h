// Schema conversion: an IPC SchemaDesc as a recflow Schema, with the dictionary-encoded fields and their ids.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc {

/// A dictionary-encoded field (at any depth) and the dictionary id it uses.
struct DictionaryFieldRef {
  /// The DictionaryEncoding id; several fields may share one.
  int64_t id = 0;
  /// Dotted path of names from the top-level field ("col", "col.item", "s.child").
  std::string path;
  /// The recflow field, of type dictionary(index_type, value_type, ordered).
  FieldPtr field;
};

/// A schema converted to recflow, with what a reader needs to apply dictionary batches.
struct ConvertedSchema {
  /// Fields, nullability and metadata (schema and fields) as written; every dictionary-encoded
  /// field becomes dictionary(index_type, value_type, ordered).
  SchemaPtr schema;
  /// Every dictionary-encoded field in pre-order (a field before its children).
  std::vector<DictionaryFieldRef> dictionary_fields;
  /// The value type of each dictionary id (the same for all fields sharing an id).
  std::map<int64_t, DataTypePtr> dictionary_value_types;
};

/// The recflow type of `field`: its value type when it is dictionary-encoded is wrapped in
/// dictionary(index_type, value_type, ordered). Extension types stay their storage type (the
/// extension name and metadata remain in the field metadata).
Result<DataTypePtr> ConvertFieldType(const FieldDesc& field);

/// The recflow field of `field` (name, nullability, type, metadata; empty metadata is null).
Result<FieldPtr> ConvertField(const FieldDesc& field);

/// Converts a whole schema. A dictionary id shared by fields of different value types, or an
/// index type that is not an integer, is a DataError. The byte order is not part of a
/// recflow schema: readers swap big-endian bodies while decoding.
Result<ConvertedSchema> ConvertSchema(const SchemaDesc& schema);

}  // namespace recflow::arrow_ipc
