// CsvSplitter: the CSV format's record boundaries (its descriptor's splitter, which holds one).
#pragma once

#include "recflow/formats/registry/format_splitter.h"

namespace recflow::csv {

/// Plans cuts moved to the first true row start at or after each (one quote-aware pass over
/// the file, RowStartsAtOrAfter: a quoted field may hold a newline, so no reader can find a row
/// start from an arbitrary byte); opens a range after the file's header row (every split knows
/// and checks the column names). A range that does not begin and end at row starts is a
/// DataError. Its options are TypedReadOptions<csv::ReadOptions>.
class CsvSplitter final : public formats::FormatSplitter {
 public:
  Result<std::vector<formats::FileRange>> Plan(const formats::MappedFile& file, int64_t target_bytes,
                                               const formats::FormatReadOptions& options) const override;
  Result<formats::RangeRecords> Open(const formats::MappedFile& file, const formats::FileRange& range,
                                     const formats::FormatReadOptions& options, const SchemaPtr& schema) const override;
};

}  // namespace recflow::csv
