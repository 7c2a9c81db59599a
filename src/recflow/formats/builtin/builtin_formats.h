// BuiltinFormats: the registry of every format recflow reads or writes, each registered by its own folder's function.
#pragma once

#include "recflow/formats/registry/format_registry.h"

namespace recflow::formats {

/// Registers csv, jsonl, tfrecord, avro and arrow in `registry` (each format folder's
/// Register...Format function, in that order); AlreadyExists when `registry` holds a clashing
/// format. For a registry that adds formats of its own to the built-in ones.
Status RegisterBuiltinFormats(FormatRegistry* registry);

/// The registry holding csv, jsonl, tfrecord, avro and arrow, built on first use (thread-safe)
/// by calling each format folder's Register...Format function; lives until exit.
const FormatRegistry& BuiltinFormats();

}  // namespace recflow::formats
