// ValueKey: binary views and decimal integer texts.
#include "recflow/ops/columns/value_key_internal.h"

#include "recflow/columnar/element_access.h"
#include "recflow/columnar/value_formatting.h"

namespace recflow::ops::internal {

bool HasValueKey(const DataType& type) {
  switch (type.id()) {
    case TypeId::kUtf8:
    case TypeId::kBinary:
    case TypeId::kLargeUtf8:
    case TypeId::kLargeBinary: return true;
    default: return type.is_integer();
  }
}

std::string_view ValueKey(const ArrayData& data, int64_t i, std::string* scratch) {
  if (!data.type->is_integer()) return BinaryValue(data, i);
  scratch->clear();
  const int64_t value = IntegerValue(data, i);
  if (data.type->id() == TypeId::kUInt64) {
    AppendInteger(static_cast<uint64_t>(value), scratch);
  } else {
    AppendInteger(value, scratch);
  }
  return *scratch;
}

}  // namespace recflow::ops::internal
