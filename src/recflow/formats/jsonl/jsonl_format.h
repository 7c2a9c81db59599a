// The JSON Lines format's registry entry: its words, its read options from the generic settings, its opener and output.
#pragma once

#include "recflow/core/result.h"
#include "recflow/formats/registry/format_registry.h"

namespace recflow::jsonl {

/// Registers "jsonl" (word "json" too): reads JSON Lines content (Sniff's text guess or a
/// .jsonl/.ndjson/.json suffix) and writes JSON Lines files ("jsonl").
Status RegisterJsonlFormat(formats::FormatRegistry* registry);

}  // namespace recflow::jsonl
