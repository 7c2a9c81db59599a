// Export to the C Data Interface: private data owns the strings, child structs and ArrayData.
#include <cstring>
#include <string>
#include <vector>

#include "recflow/columnar/c_data.h"
#include "recflow/columnar/c_data_format.h"

namespace recflow::c_data {

namespace {

/// What an exported ArrowSchema owns.
struct SchemaPrivate {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<ArrowSchema> children;
  std::vector<ArrowSchema*> child_pointers;
  std::unique_ptr<ArrowSchema> dictionary;
};

/// The release callback of an exported ArrowSchema or ArrowArray (`Struct`) whose private data
/// is a `Private`: releases the children and the dictionary a consumer has not moved out, then
/// frees what the struct owns and marks it released.
template <typename Struct, typename Private>
void Release(Struct* exported) {
  auto* owned = static_cast<Private*>(exported->private_data);
  for (Struct& child : owned->children) {
    if (child.release != nullptr) child.release(&child);
  }
  if (owned->dictionary != nullptr && owned->dictionary->release != nullptr) owned->dictionary->release(owned->dictionary.get());
  delete owned;
  exported->release = nullptr;
}

/// The specification's metadata encoding: int32 count, then int32 length + bytes of each key
/// and value (native byte order); empty when there are no pairs.
std::string EncodeMetadata(const KeyValueMetadata* metadata) {
  std::string out;
  if (metadata == nullptr || metadata->size() == 0) return out;
  const auto put = [&out](int32_t n) { out.append(reinterpret_cast<const char*>(&n), sizeof(n)); };
  put(static_cast<int32_t>(metadata->size()));
  for (int64_t i = 0; i < metadata->size(); ++i) {
    put(static_cast<int32_t>(metadata->key(i).size()));
    out += metadata->key(i);
    put(static_cast<int32_t>(metadata->value(i).size()));
    out += metadata->value(i);
  }
  return out;
}

/// Fills `out` for a type with the given name, flags, metadata and children fields.
void FillSchema(const DataType& type, std::string name, int64_t flags, const KeyValueMetadata* metadata,
                ArrowSchema* out) {
  auto owned = std::make_unique<SchemaPrivate>();
  owned->format = FormatOf(type);
  owned->name = std::move(name);
  owned->metadata = EncodeMetadata(metadata);
  const std::vector<FieldPtr>& fields = type.fields();  // none for a dictionary: its values go below
  owned->children.resize(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    (void)ExportField(*fields[i], &owned->children[i]);
    owned->child_pointers.push_back(&owned->children[i]);
  }
  if (type.id() == TypeId::kDictionary) {
    owned->dictionary = std::make_unique<ArrowSchema>();
    FillSchema(*type.value_type(), "", ARROW_FLAG_NULLABLE, nullptr, owned->dictionary.get());
    if (type.params().ordered) flags |= ARROW_FLAG_DICTIONARY_ORDERED;
  }
  if (type.id() == TypeId::kMap && type.params().keys_sorted) flags |= ARROW_FLAG_MAP_KEYS_SORTED;
  out->format = owned->format.c_str();
  out->name = owned->name.c_str();
  out->metadata = owned->metadata.empty() ? nullptr : owned->metadata.data();
  out->flags = flags;
  out->n_children = static_cast<int64_t>(owned->children.size());
  out->children = owned->child_pointers.empty() ? nullptr : owned->child_pointers.data();
  out->dictionary = owned->dictionary.get();
  out->release = Release<ArrowSchema, SchemaPrivate>;
  out->private_data = owned.release();
}

/// What an exported ArrowArray owns: the ArrayData (and so every buffer) and the child structs.
struct ArrayPrivate {
  std::shared_ptr<ArrayData> data;
  std::vector<const void*> buffers;
  std::vector<int64_t> variadic_sizes;  ///< views: the size of each data buffer, the last C buffer
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
  std::unique_ptr<ArrowArray> dictionary;
};

void FillArray(std::shared_ptr<ArrayData> data, ArrowArray* out) {
  auto owned = std::make_unique<ArrayPrivate>();
  // A union's first slot (validity) has no place in the C layout.
  const size_t first = data->type->id() == TypeId::kUnion ? 1 : 0;
  for (size_t b = first; b < data->buffers.size(); ++b) {
    owned->buffers.push_back(data->buffers[b] ? data->buffers[b]->data() : nullptr);
  }
  if (data->type->id() == TypeId::kBinaryView || data->type->id() == TypeId::kUtf8View) {
    for (size_t b = 2; b < data->buffers.size(); ++b) {
      owned->variadic_sizes.push_back(data->buffers[b] ? data->buffers[b]->size() : 0);
    }
    owned->buffers.push_back(owned->variadic_sizes.data());
  }
  owned->children.resize(data->children.size());
  for (size_t i = 0; i < data->children.size(); ++i) {
    FillArray(data->children[i], &owned->children[i]);
    owned->child_pointers.push_back(&owned->children[i]);
  }
  if (data->dictionary != nullptr) {
    owned->dictionary = std::make_unique<ArrowArray>();
    FillArray(data->dictionary, owned->dictionary.get());
  }
  out->length = data->length;
  out->null_count = data->null_count;
  out->offset = data->offset;
  out->n_buffers = static_cast<int64_t>(owned->buffers.size());
  out->n_children = static_cast<int64_t>(owned->children.size());
  out->buffers = owned->buffers.empty() ? nullptr : owned->buffers.data();
  out->children = owned->child_pointers.empty() ? nullptr : owned->child_pointers.data();
  out->dictionary = owned->dictionary.get();
  out->release = Release<ArrowArray, ArrayPrivate>;
  owned->data = std::move(data);
  out->private_data = owned.release();
}

}  // namespace

Status ExportField(const Field& field, ArrowSchema* out) {
  FillSchema(*field.type(), field.name(), field.nullable() ? ARROW_FLAG_NULLABLE : 0, field.metadata().get(), out);
  return Status::OK();
}

Status ExportSchema(const Schema& schema, ArrowSchema* out) {
  FillSchema(*struct_(schema.fields()), "", 0, schema.metadata().get(), out);
  return Status::OK();
}

Status ExportArray(std::shared_ptr<ArrayData> data, ArrowArray* out) {
  if (data == nullptr || data->type == nullptr) return Status::InvalidArgument("cannot export an untyped array");
  FillArray(std::move(data), out);
  return Status::OK();
}

Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out) {
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (int c = 0; c < batch.num_columns(); ++c) columns.push_back(batch.column_data(c));
  return ExportArray(ArrayData::Make(struct_(batch.schema()->fields()), batch.num_rows(), {nullptr}, 0, 0,
                                     std::move(columns)),
                     out);
}

}  // namespace recflow::c_data
