// The test_stream source: Beam's TestStream as a JSON Lines file of actions — element bundles, watermark and
// processing-time advances — replayed in order, so windowed pipelines are tested deterministically.
#pragma once

#include <memory>
#include <string>

#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"
#include "recflow/formats/source.h"

namespace recflow::pipeline {

/// Opens the test stream `path` on `fs`. One action per line, in order:
///   {"elements": [{"ts": 1000, "key": "a", "v": 1}, ...]}  one bundle (one unit); `ts` is the
///       element's event time in epoch milliseconds, every other member a column;
///   {"watermark": 25000}        the input watermark advances (a unit of no rows carrying a
///                               FlowToken::kWatermark); it may not go back;
///   {"processing_time": 30000}  the processing-time clock advances (FlowToken::kProcessingTime;
///                               the clock starts at 0); it may not go back.
/// At the end of the file the input ends (the groupings move the watermark to +infinity). The
/// columns are the elements' members (types inferred as JSON Lines infers them), `ts` int64
/// marked as the event-time column (kEventTimeMetadataKey). Errors name the file, the line as
/// the record and its byte offset; a record of a late-row dead letter is the element's index
/// among all elements of the file.
Result<std::unique_ptr<Source>> OpenTestStream(FileSystem& fs, const std::string& path);

}  // namespace recflow::pipeline
