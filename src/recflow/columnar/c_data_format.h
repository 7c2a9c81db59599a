// Arrow C Data Interface format strings: the text that names a type ("l", "+s", "tsu:UTC", ...).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::c_data {

/// The format string of `type`; for a dictionary type, its index type's (the values go in the
/// ArrowSchema's dictionary).
std::string FormatOf(const DataType& type);

/// The type `format` names. Nested formats take their members from `children` (the imported
/// child fields: one for the list kinds and map, any number for struct and union); `flags` are
/// the ArrowSchema flags (ARROW_FLAG_MAP_KEYS_SORTED). DataError for an unknown or malformed
/// format, or children that do not fit it.
Result<DataTypePtr> TypeFromFormat(std::string_view format, std::vector<FieldPtr> children, int64_t flags);

}  // namespace recflow::c_data
