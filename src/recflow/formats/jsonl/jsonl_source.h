// JSON Lines as a pipeline Source: runs of lines gathered in order, parsed and converted in parallel.
#pragma once

#include <memory>
#include <string>

#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/jsonl/read_options.h"
#include "recflow/formats/source.h"

namespace recflow::jsonl {

/// Opens a stream of JSON Lines (already decompressed: dataset::OpenInputs wraps a file in the
/// codec detection found) as a Source. The inference sample is read at once (as JsonlReader
/// does); each unit then gathers about ReadOptions::block_size bytes of whole lines, and
/// Decode() parses them with simdjson. Under formats::BadRowsMode::kSkip bad lines come back as
/// SkippedRecords (on_bad_row is not called).
Result<std::unique_ptr<Source>> OpenJsonlSource(std::unique_ptr<InputStream> in, const ReadOptions& options);

}  // namespace recflow::jsonl
