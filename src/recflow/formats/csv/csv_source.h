// CSV as a pipeline Source: blocks of whole rows cut in order, parsed and converted in parallel.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/csv/read_options.h"
#include "recflow/formats/source.h"

namespace recflow::csv {

/// Opens a stream of CSV (already decompressed: dataset::OpenInputs wraps a file in the codec
/// detection found) as a Source. The header and the inference sample are read at once (as
/// CsvReader does); each unit is then one block of ReadOptions::block_size bytes cut on a row
/// boundary, and Decode() tokenizes and converts it. Under formats::BadRowsMode::kSkip bad rows come back
/// as SkippedRecords (ReadOptions::on_bad_row is not called). ReadOptions::batch_rows does not
/// apply: a unit's batch holds the block's rows. When `header_names` is given it receives the
/// header row's names (CsvReader::header_names).
Result<std::unique_ptr<Source>> OpenCsvSource(std::unique_ptr<InputStream> in, const ReadOptions& options,
                                              std::vector<std::string>* header_names = nullptr);

}  // namespace recflow::csv
