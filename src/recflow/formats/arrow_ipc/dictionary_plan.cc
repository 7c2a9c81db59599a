// DictionaryTracker: equality and prefix checks, value unification by key, and index rewriting.
#include "recflow/formats/arrow_ipc/dictionary_plan_internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/equals.h"
#include "recflow/columnar/take.h"

namespace recflow::arrow_ipc {

namespace {

/// True when values of `type` compare equal exactly when their bytes do (binary-like and
/// byte-wide fixed-width non-float types), so ValueKey can hash them.
bool HasByteKey(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBinary: case TypeId::kUtf8: case TypeId::kLargeBinary: case TypeId::kLargeUtf8:
    case TypeId::kFixedSizeBinary:
      return true;
    case TypeId::kNull: case TypeId::kBool: case TypeId::kFloat16: case TypeId::kFloat32: case TypeId::kFloat64:
    case TypeId::kDictionary:
      return false;
    default:
      return type.fields().empty() && type.bit_width() % 8 == 0;
  }
}

/// The key of value `i` of `values` (a type with HasByteKey): empty for null, else "v" and its bytes.
std::string ValueKey(const ArrayData& values, int64_t i) {
  const uint8_t* validity = values.validity();
  if (validity != nullptr && !bit_util::GetBit(validity, values.offset + i)) return std::string();
  switch (values.type->id()) {
    case TypeId::kBinary: case TypeId::kUtf8: case TypeId::kLargeBinary: case TypeId::kLargeUtf8:
    case TypeId::kFixedSizeBinary:
      return "v" + std::string(BinaryValue(values, i));
    default: {
      const int64_t width = values.type->bit_width() / 8;
      return "v" + std::string(reinterpret_cast<const char*>(values.buffers[1]->data()) + (values.offset + i) * width,
                               static_cast<size_t>(width));
    }
  }
}

/// The largest index `index_type` holds.
int64_t MaxIndex(const DataType& index_type) {
  const int bits = index_type.bit_width();
  const bool is_signed = index_type.id() >= TypeId::kInt8 && index_type.id() <= TypeId::kInt64;
  if (bits >= 64) return INT64_MAX;
  return is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
}

/// For each value of `incoming`, its index in `current` (equal values found), else a new index
/// past the end; `appended` gets the indices of `incoming` that are new, in order.
std::vector<int64_t> Unify(const ArrayData& current, const ArrayData& incoming, std::vector<int64_t>* appended) {
  std::vector<int64_t> to(static_cast<size_t>(incoming.length), -1);
  int64_t next = current.length;
  if (HasByteKey(*incoming.type)) {
    std::unordered_map<std::string, int64_t> index;
    for (int64_t i = current.length - 1; i >= 0; --i) index[ValueKey(current, i)] = i;  // first occurrence wins
    for (int64_t i = 0; i < incoming.length; ++i) {
      auto [it, inserted] = index.emplace(ValueKey(incoming, i), next);
      if (inserted) {
        appended->push_back(i);
        ++next;
      }
      to[static_cast<size_t>(i)] = it->second;
    }
    return to;
  }
  // Types without a byte key (floats, booleans, nested values): compare one-element slices.
  for (int64_t i = 0; i < incoming.length; ++i) {
    const auto value = incoming.Slice(i, 1);
    for (int64_t j = 0; j < current.length && to[static_cast<size_t>(i)] < 0; ++j) {
      if (ArrayEquals(*current.Slice(j, 1), *value)) to[static_cast<size_t>(i)] = j;
    }
    for (size_t k = 0; k < appended->size() && to[static_cast<size_t>(i)] < 0; ++k) {
      if (ArrayEquals(*incoming.Slice((*appended)[k], 1), *value)) {
        to[static_cast<size_t>(i)] = current.length + static_cast<int64_t>(k);
      }
    }
    if (to[static_cast<size_t>(i)] < 0) {
      appended->push_back(i);
      to[static_cast<size_t>(i)] = next++;
    }
  }
  return to;
}

/// A copy of the dictionary array `data` (offset 0) whose index i is (*remap.to)[its index i],
/// pointing into remap.dictionary.
Result<std::shared_ptr<ArrayData>> Remapped(const ArrayData& data, const IndexRemap& remap) {
  const int width = data.type->params().index_type->bit_width() / 8;
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> indices, Buffer::Allocate(data.length * width));
  uint8_t* out = const_cast<uint8_t*>(indices->data());
  const uint8_t* validity = data.validity();
  for (int64_t i = 0; i < data.length; ++i) {
    int64_t index = 0;
    if (validity == nullptr || bit_util::GetBit(validity, data.offset + i)) {
      const int64_t from = DictionaryIndex(data, i);
      if (from < 0 || from >= static_cast<int64_t>(remap.to->size())) {
        return Status::DataError("dictionary index " + std::to_string(from) + " at row " + std::to_string(i) +
                                 " outside a dictionary of " + std::to_string(remap.to->size()));
      }
      index = (*remap.to)[static_cast<size_t>(from)];
    }
    std::memcpy(out + i * width, &index, static_cast<size_t>(width));  // little-endian: the low bytes
  }
  std::shared_ptr<Buffer> validity_buffer;
  auto result = ArrayData::Make(data.type, data.length, {}, data.null_count, 0);
  if (validity != nullptr) {
    ASSIGN_OR_RETURN(validity_buffer, Buffer::Allocate(bit_util::BytesForBits(data.length)));
    uint8_t* bits = const_cast<uint8_t*>(validity_buffer->data());
    for (int64_t i = 0; i < data.length; ++i) bit_util::SetBitTo(bits, i, bit_util::GetBit(validity, data.offset + i));
  }
  result->buffers = {validity_buffer, std::move(indices)};
  result->dictionary = remap.dictionary;
  return result;
}

/// `node` with the array at path[k..] replaced by its remapped copy.
Result<std::shared_ptr<ArrayData>> RemapAt(const std::shared_ptr<ArrayData>& node, const std::vector<int>& path,
                                           size_t k, const IndexRemap& remap) {
  if (k == path.size()) return Remapped(*node, remap);
  auto copy = std::make_shared<ArrayData>(*node);
  auto& child = copy->children[static_cast<size_t>(path[k])];
  ASSIGN_OR_RETURN(child, RemapAt(child, path, k + 1, remap));
  return copy;
}

}  // namespace

DictionaryTracker::DictionaryTracker(const Schema& schema, std::vector<DictionaryField> fields,
                                     DictionaryChange change)
    : fields_(std::move(fields)),
      change_(change),
      written_(fields_.size()),
      unified_(fields_.size()),
      unified_to_(fields_.size()) {
  for (const DictionaryField& field : fields_) names_.push_back(schema.field(field.path[0])->name());
}

Result<DictionaryPlan> DictionaryTracker::Plan(const RecordBatch& batch) {
  DictionaryPlan plan;
  std::vector<std::shared_ptr<ArrayData>> before = written_;
  for (auto it = fields_.rbegin(); it != fields_.rend(); ++it) {
    Status st = PlanOne(*it, ArrayAtPath(batch, it->path), &plan);
    if (!st.ok()) {
      written_ = std::move(before);
      return st;
    }
  }
  return plan;
}

Status DictionaryTracker::PlanOne(const DictionaryField& field, const ArrayData& array, DictionaryPlan* plan) {
  const std::shared_ptr<ArrayData>& values = array.dictionary;
  const size_t id = static_cast<size_t>(field.id);
  std::shared_ptr<ArrayData>& written = written_[id];
  if (written == nullptr) {
    plan->updates.push_back({field.id, values, false});
    written = values;
    return Status::OK();
  }
  if (written == values) return Status::OK();
  if (change_ == DictionaryChange::kUnify && unified_[id] == values) {
    plan->remaps.push_back({field.id, unified_to_[id], written});
    return Status::OK();
  }
  if (ArrayEquals(*written, *values)) {
    written = values;  // the same values: the next runs of this batch take the pointer check
    return Status::OK();
  }
  if (values->length > written->length && ArrayEquals(*written, *values->Slice(0, written->length))) {
    plan->updates.push_back({field.id, values->Slice(written->length, values->length - written->length), true});
    written = values;
    return Status::OK();
  }
  const std::string what = "dictionary " + std::to_string(field.id) + " (column '" + names_[id] + "')";
  switch (change_) {
    case DictionaryChange::kReplace:
      plan->updates.push_back({field.id, values, false});
      written = values;
      return Status::OK();
    case DictionaryChange::kRefuse:
      return Status::InvalidArgument("the Arrow file format cannot replace " + what +
                                     " with one that does not extend it; write a stream instead");
    case DictionaryChange::kUnify:
      break;
  }
  if (array.type->params().ordered) {
    return Status::InvalidArgument("the Arrow file format cannot replace the ordered " + what +
                                   ", and unifying it would break its order; write a stream instead");
  }
  if (std::find(field.path.begin(), field.path.end(), kDictionaryStep) != field.path.end()) {
    return Status::InvalidArgument("the Arrow file format cannot replace " + what +
                                   ", which encodes another dictionary's values; write a stream instead");
  }
  std::vector<int64_t> appended;
  auto to = std::make_shared<const std::vector<int64_t>>(Unify(*written, *values, &appended));
  const int64_t size = written->length + static_cast<int64_t>(appended.size());
  if (size - 1 > MaxIndex(*array.type->params().index_type)) {
    return Status::InvalidArgument(what + " unified over one file holds " + std::to_string(size) +
                                   " values, more than its " + array.type->params().index_type->ToString() +
                                   " indices reach");
  }
  if (!appended.empty()) {
    ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> delta, Take(*values, appended));
    ASSIGN_OR_RETURN(written, Concatenate({written, delta}));
    plan->updates.push_back({field.id, std::move(delta), true});
  }
  unified_[id] = values;
  unified_to_[id] = to;
  plan->remaps.push_back({field.id, std::move(to), written});
  return Status::OK();
}

Result<std::vector<std::shared_ptr<ArrayData>>> ApplyRemaps(const DictionaryPlan& plan,
                                                            const std::vector<DictionaryField>& fields,
                                                            std::vector<std::shared_ptr<ArrayData>> columns) {
  for (const IndexRemap& remap : plan.remaps) {
    const std::vector<int>& path = fields[static_cast<size_t>(remap.id)].path;
    auto& column = columns[static_cast<size_t>(path[0])];
    ASSIGN_OR_RETURN(column, RemapAt(column, path, 1, remap));
  }
  return columns;
}

}  // namespace recflow::arrow_ipc
