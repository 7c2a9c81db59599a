// JSON Lines output: each row as one JSON object on its own line, rendered by RowJsonRenderer.
#pragma once

#include <memory>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/output_format.h"

namespace recflow::jsonl {

/// The "jsonl" output format (suffix ".jsonl"): each row is one flat JSON object, keys in schema
/// order, followed by LF; values as WriteJsonValue writes them (the `recflow cat` rendering,
/// timestamps as ISO-8601 text). Every schema can be written; null `schema` is InvalidArgument.
/// Encode fails (TypeError naming column and row) only on a timestamp outside years 0000..9999.
Result<std::shared_ptr<const OutputFormat>> MakeJsonlOutputFormat(SchemaPtr schema);

}  // namespace recflow::jsonl
