// BuiltinFormats: the registry of every format recflow reads or writes, each registered by its own folder's function.
#pragma once

#include "recflow/formats/registry/format_registry.h"

namespace recflow::formats {

/// The registry holding csv, jsonl, tfrecord, avro and arrow, built on first use (thread-safe)
/// by calling each format folder's Register...Format function; lives until exit.
const FormatRegistry& BuiltinFormats();

}  // namespace recflow::formats
