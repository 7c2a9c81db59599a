// ParseTypeName: the type names pipeline files use ("int64", "list<float32>", "timestamp[ms]").
#pragma once

#include <string_view>

#include "recflow/columnar/type.h"
#include "recflow/core/result.h"

namespace recflow::ops {

/// Parses a type name: bool (boolean), int8, int16, int32, int64, uint8, uint16, uint32,
/// uint64, float32 (float), float64 (double), utf8 (string), binary (bytes), date32 (date),
/// timestamp[s|ms|us|ns] with an optional time zone (`timestamp[ms, tz=UTC]`, as
/// DataType::ToString writes it; `timestamp` alone is timestamp[us]), and list<T> of any of
/// them. Spaces around names are ignored. InvalidArgument listing the names for anything else.
Result<DataTypePtr> ParseTypeName(std::string_view text);

}  // namespace recflow::ops
