// ApplyInferredSettings: the generic read settings copied into the options of a format that infers its schema.
#pragma once

#include "recflow/formats/registry/format_descriptor.h"

namespace recflow::formats {

/// Copies the settings every schema-inferring text format shares into its options `o`
/// (csv::ReadOptions, jsonl::ReadOptions): unit bytes, inference rows, the schema, the type hints
/// and the bad-rows policy (an enum with kSkip and kFail).
template <typename Options>
void ApplyInferredSettings(const ReadSettings& settings, Options* o) {
  o->block_size = settings.block_size;
  o->inference_rows = settings.infer_rows;
  o->schema = settings.schema;
  o->type_hints = settings.type_hints;
  o->bad_rows = settings.skip_bad ? decltype(o->bad_rows)::kSkip : decltype(o->bad_rows)::kFail;
}

}  // namespace recflow::formats
