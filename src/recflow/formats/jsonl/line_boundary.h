// Where JSON Lines records start: after an LF (a JSON string cannot hold a raw newline).
#pragma once

#include <cstdint>
#include <string_view>

namespace recflow::jsonl {

/// The first line start at or after `at` in `data`: 0 when `at` is 0, else just past the first
/// LF at or after `at - 1` (Hadoop's LineRecordReader rule), or data.size() when there is none.
/// A JSON text cannot hold a raw LF inside a string, so every LF ends a record.
int64_t LineStartAtOrAfter(std::string_view data, int64_t at);

}  // namespace recflow::jsonl
