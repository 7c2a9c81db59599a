// Import from the C Data Interface: types from format strings, arrays wrapped without copies.
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/c_data.h"
#include "recflow/columnar/c_data_format.h"
#include "recflow/columnar/validate.h"

namespace recflow::c_data {

namespace {

constexpr int kMaxDepth = 64;
/// Most metadata pairs and bytes per key or value accepted from a producer.
constexpr int32_t kMaxMetadataPairs = 1 << 16;
constexpr int32_t kMaxMetadataBytes = 1 << 24;

/// Calls `schema`'s release (if any) when it goes out of scope.
class SchemaReleaser {
 public:
  explicit SchemaReleaser(ArrowSchema* schema) : schema_(schema) {}
  ~SchemaReleaser() {
    if (schema_->release != nullptr) schema_->release(schema_);
  }
  SchemaReleaser(const SchemaReleaser&) = delete;
  SchemaReleaser& operator=(const SchemaReleaser&) = delete;

 private:
  ArrowSchema* schema_;
};

Result<std::shared_ptr<const KeyValueMetadata>> DecodeMetadata(const char* bytes) {
  if (bytes == nullptr) return std::shared_ptr<const KeyValueMetadata>();
  const auto get = [&bytes]() {
    int32_t n;
    std::memcpy(&n, bytes, sizeof(n));
    bytes += sizeof(n);
    return n;
  };
  const int32_t pairs = get();
  if (pairs < 0 || pairs > kMaxMetadataPairs) return Status::DataError("metadata with " + std::to_string(pairs) + " pairs");
  std::vector<std::pair<std::string, std::string>> items;
  for (int32_t i = 0; i < pairs; ++i) {
    std::string kv[2];
    for (std::string& text : kv) {
      const int32_t length = get();
      if (length < 0 || length > kMaxMetadataBytes) return Status::DataError("metadata text of " + std::to_string(length) + " bytes");
      text.assign(bytes, static_cast<size_t>(length));
      bytes += length;
    }
    items.emplace_back(std::move(kv[0]), std::move(kv[1]));
  }
  if (items.empty()) return std::shared_ptr<const KeyValueMetadata>();
  return std::make_shared<const KeyValueMetadata>(std::move(items));
}

Result<FieldPtr> ReadField(const ArrowSchema& schema, int depth) {
  if (depth > kMaxDepth) return Status::DataError("schema nested deeper than " + std::to_string(kMaxDepth));
  if (schema.release == nullptr) return Status::DataError("the ArrowSchema is already released");
  if (schema.format == nullptr) return Status::DataError("ArrowSchema without a format");
  if (schema.n_children < 0 || (schema.n_children > 0 && schema.children == nullptr)) {
    return Status::DataError("ArrowSchema with an invalid children list");
  }
  std::vector<FieldPtr> children;
  for (int64_t i = 0; i < schema.n_children; ++i) {
    if (schema.children[i] == nullptr) return Status::DataError("ArrowSchema child " + std::to_string(i) + " is NULL");
    ASSIGN_OR_RETURN(FieldPtr child, ReadField(*schema.children[i], depth + 1));
    children.push_back(std::move(child));
  }
  ASSIGN_OR_RETURN(DataTypePtr type, TypeFromFormat(schema.format, std::move(children), schema.flags));
  if (schema.dictionary != nullptr) {
    if (!type->is_integer()) return Status::DataError("dictionary indices of type " + type->ToString());
    ASSIGN_OR_RETURN(FieldPtr values, ReadField(*schema.dictionary, depth + 1));
    type = dictionary(type, values->type(), (schema.flags & ARROW_FLAG_DICTIONARY_ORDERED) != 0);
  }
  ASSIGN_OR_RETURN(auto metadata, DecodeMetadata(schema.metadata));
  return Field::Make(schema.name != nullptr ? schema.name : "", std::move(type),
                     (schema.flags & ARROW_FLAG_NULLABLE) != 0, std::move(metadata));
}

/// The moved-in root ArrowArray; releasing it releases every child and dictionary.
struct ImportedRoot {
  ArrowArray array;
  ~ImportedRoot() {
    if (array.release != nullptr) array.release(&array);
  }
};

/// Builds ArrayData over an imported array's buffers, sizes from the layout rules.
class Importer {
 public:
  explicit Importer(std::shared_ptr<const ImportedRoot> root) : root_(std::move(root)) {}

  Result<std::shared_ptr<ArrayData>> Read(const ArrowArray& c, const DataTypePtr& type, int depth) {
    if (depth > kMaxDepth) return Status::DataError("array nested deeper than " + std::to_string(kMaxDepth));
    if (c.length < 0 || c.offset < 0 || c.length > std::numeric_limits<int64_t>::max() / 16 - c.offset) {
      return Status::DataError("array length " + std::to_string(c.length) + " or offset " + std::to_string(c.offset) +
                               " out of range");
    }
    const int64_t end = c.offset + c.length;
    const TypeId id = type->id();
    const size_t c_buffers = CBufferCount(*type);
    const bool views = id == TypeId::kBinaryView || id == TypeId::kUtf8View;
    const bool count_ok = views ? c.n_buffers >= static_cast<int64_t>(c_buffers)
                                : c.n_buffers == static_cast<int64_t>(c_buffers);
    if (!count_ok || (c_buffers > 0 && c.buffers == nullptr)) {
      return Status::DataError(type->ToString() + " array with " + std::to_string(c.n_buffers) + " buffers, expected " +
                               (views ? "at least " : "") + std::to_string(c_buffers));
    }
    auto data = std::make_shared<ArrayData>();
    data->type = type;
    data->length = c.length;
    data->offset = c.offset;
    data->null_count = c.null_count;
    if (id == TypeId::kNull) {
      data->null_count = c.length;
      return data;
    }
    if (c.null_count < 0 && id != TypeId::kRunEndEncoded) {  // "unknown": count it
      data->null_count = c.buffers[0] == nullptr ? 0
                                                 : c.length - bit_util::CountSetBits(static_cast<const uint8_t*>(c.buffers[0]),
                                                                                     c.offset, c.length);
    }
    if (id == TypeId::kRunEndEncoded) {
      data->null_count = 0;  // no buffers of its own: its nulls are its values'
    } else if (id == TypeId::kUnion) {
      data->buffers.push_back(nullptr);
      data->buffers.push_back(Wrap(c.buffers[0], end));
      if (type->params().union_mode == UnionMode::kDense) data->buffers.push_back(Wrap(c.buffers[1], end * 4));
    } else {
      data->buffers.push_back(Wrap(c.buffers[0], bit_util::BytesForBits(end)));
      switch (id) {
        case TypeId::kStruct:
        case TypeId::kFixedSizeList: break;
        case TypeId::kBinary:
        case TypeId::kUtf8:
          data->buffers.push_back(Wrap(c.buffers[1], (end + 1) * 4));
          data->buffers.push_back(Wrap(c.buffers[2], LastOffset<int32_t>(c, end)));
          break;
        case TypeId::kLargeBinary:
        case TypeId::kLargeUtf8:
          data->buffers.push_back(Wrap(c.buffers[1], (end + 1) * 8));
          data->buffers.push_back(Wrap(c.buffers[2], LastOffset<int64_t>(c, end)));
          break;
        case TypeId::kList:
        case TypeId::kMap: data->buffers.push_back(Wrap(c.buffers[1], (end + 1) * 4)); break;
        case TypeId::kLargeList: data->buffers.push_back(Wrap(c.buffers[1], (end + 1) * 8)); break;
        case TypeId::kListView:
        case TypeId::kLargeListView: {
          const int64_t width = id == TypeId::kListView ? 4 : 8;
          data->buffers.push_back(Wrap(c.buffers[1], end * width));
          data->buffers.push_back(Wrap(c.buffers[2], end * width));
          break;
        }
        case TypeId::kBinaryView:
        case TypeId::kUtf8View: RETURN_NOT_OK(WrapViews(c, end, *data)); break;
        case TypeId::kBool: data->buffers.push_back(Wrap(c.buffers[1], bit_util::BytesForBits(end))); break;
        case TypeId::kDictionary:
          data->buffers.push_back(Wrap(c.buffers[1], end * (type->params().index_type->bit_width() / 8)));
          break;
        default: {
          const int64_t width =
              id == TypeId::kFixedSizeBinary ? type->params().width : type->bit_width() / 8;
          if (width < 0 || (width > 0 && end > std::numeric_limits<int64_t>::max() / width)) {
            return Status::DataError(type->ToString() + " array too long");
          }
          data->buffers.push_back(Wrap(c.buffers[1], end * width));
        }
      }
    }
    const std::vector<FieldPtr>& fields = type->fields();
    if (c.n_children != static_cast<int64_t>(fields.size()) || (c.n_children > 0 && c.children == nullptr)) {
      return Status::DataError(type->ToString() + " array with " + std::to_string(c.n_children) + " children, expected " +
                               std::to_string(fields.size()));
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      if (c.children[i] == nullptr) return Status::DataError("child " + std::to_string(i) + " is NULL");
      ASSIGN_OR_RETURN(auto child, Read(*c.children[i], fields[i]->type(), depth + 1));
      data->children.push_back(std::move(child));
    }
    if (id == TypeId::kDictionary) {
      if (c.dictionary == nullptr) return Status::DataError("dictionary array without a dictionary");
      ASSIGN_OR_RETURN(data->dictionary, Read(*c.dictionary, type->value_type(), depth + 1));
    }
    return data;
  }

 private:
  /// Buffers the C layout has for `type` (a union has no validity slot there; views have at
  /// least 3: validity, views, then their data buffers and one of the data buffers' int64 sizes).
  static size_t CBufferCount(const DataType& type) {
    switch (type.id()) {
      case TypeId::kNull: case TypeId::kRunEndEncoded: return 0;
      case TypeId::kStruct: case TypeId::kFixedSizeList: return 1;
      case TypeId::kBinary: case TypeId::kUtf8: case TypeId::kLargeBinary: case TypeId::kLargeUtf8:
      case TypeId::kListView: case TypeId::kLargeListView: case TypeId::kBinaryView: case TypeId::kUtf8View: return 3;
      case TypeId::kUnion: return type.params().union_mode == UnionMode::kDense ? 2 : 1;
      default: return 2;
    }
  }

  /// The data size a binary array's last offset implies (0 without offsets or elements).
  template <typename Offset>
  static int64_t LastOffset(const ArrowArray& c, int64_t end) {
    if (c.buffers[1] == nullptr) return 0;
    Offset last;
    std::memcpy(&last, static_cast<const uint8_t*>(c.buffers[1]) + end * static_cast<int64_t>(sizeof(Offset)),
                sizeof(last));
    return last < 0 ? 0 : static_cast<int64_t>(last);
  }

  /// The views and data buffers of a binary view array, sized by the last C buffer.
  Status WrapViews(const ArrowArray& c, int64_t end, ArrayData& data) {
    data.buffers.push_back(Wrap(c.buffers[1], end * 16));
    const int64_t data_buffers = c.n_buffers - 3;
    const auto* sizes = static_cast<const int64_t*>(c.buffers[c.n_buffers - 1]);
    if (data_buffers > 0 && sizes == nullptr) return Status::DataError("binary view array without its buffer sizes");
    for (int64_t k = 0; k < data_buffers; ++k) {
      int64_t size;
      std::memcpy(&size, sizes + k, sizeof(size));
      if (size < 0) return Status::DataError("binary view data buffer " + std::to_string(k) + " of negative size");
      data.buffers.push_back(Wrap(c.buffers[2 + k], size));
    }
    return Status::OK();
  }

  std::shared_ptr<Buffer> Wrap(const void* pointer, int64_t size) {
    if (pointer == nullptr) return nullptr;
    return Buffer::Wrap(pointer, size, root_);
  }

  std::shared_ptr<const ImportedRoot> root_;
};

}  // namespace

Result<FieldPtr> ImportField(ArrowSchema* schema) {
  if (schema == nullptr) return Status::InvalidArgument("NULL ArrowSchema");
  SchemaReleaser releaser(schema);
  return ReadField(*schema, 0);
}

Result<SchemaPtr> ImportSchema(ArrowSchema* schema) {
  ASSIGN_OR_RETURN(FieldPtr root, ImportField(schema));
  if (root->type()->id() != TypeId::kStruct) {
    return Status::DataError("a schema must be exported as a struct, got " + root->type()->ToString());
  }
  return Schema::Make(root->type()->fields(), root->metadata());
}

Result<std::shared_ptr<ArrayData>> ImportArray(ArrowArray* array, const DataTypePtr& type) {
  if (array == nullptr || array->release == nullptr) return Status::InvalidArgument("NULL or released ArrowArray");
  auto root = std::make_shared<ImportedRoot>();
  root->array = *array;
  array->release = nullptr;  // moved: recflow releases it
  Importer importer(root);
  ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> data, importer.Read(root->array, type, 0));
  RETURN_NOT_OK(ValidateFull(*data));
  return data;
}

Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array, const SchemaPtr& schema) {
  ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> data, ImportArray(array, struct_(schema->fields())));
  if (data->null_count != 0) return Status::DataError("a record batch's struct array has nulls");
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (const auto& child : data->children) {
    columns.push_back(data->offset == 0 && child->length == data->length ? child : child->Slice(data->offset, data->length));
  }
  return RecordBatch::Make(schema, data->length, std::move(columns));
}

}  // namespace recflow::c_data
