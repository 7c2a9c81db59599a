// CsvSplitter: split cuts at row starts found by one quote-aware pass, ranges read behind the header row.
#include "recflow/formats/csv/csv_splitter_internal.h"

#include "recflow/formats/csv/csv_source.h"
#include "recflow/formats/csv/row_boundary.h"
#include "recflow/formats/registry/format_descriptor.h"

namespace recflow::csv {

namespace {

using formats::FileRange;
using formats::MappedFile;

const ReadOptions& CsvOptions(const formats::FormatReadOptions& options) {
  return static_cast<const formats::TypedReadOptions<ReadOptions>&>(options).options();
}

/// DataError unless `at` is where a CSV row starts (0, the end, or just after an LF).
Status CheckRowStart(const MappedFile& file, const FileRange& range, int64_t at) {
  const Buffer& data = *file.data;
  if (at == 0 || at == data.size() || data.data()[at - 1] == '\n') return Status::OK();
  return Status::DataError("CSV split " + range.ToString() + " does not begin and end at row starts (byte " +
                           std::to_string(at - 1) +
                           " is not an LF): a quoted field may hold a newline, so only the split boundaries "
                           "`recflow splits` (MakeSplits) found by reading the file from its start are valid")
      .WithFile(file.path)
      .WithOffset(at);
}

}  // namespace

Result<std::vector<formats::FileRange>> CsvSplitter::Plan(const MappedFile& file, int64_t target_bytes,
                                                          const formats::FormatReadOptions& options) const {
  const int64_t size = file.data->size();
  const std::vector<int64_t> cuts = formats::EvenCuts(size, target_bytes);
  if (cuts.empty()) return formats::ByteRangesBetween(size, cuts);
  return formats::ByteRangesBetween(size, RowStartsAtOrAfter(file.data->view(), CsvOptions(options).dialect, cuts));
}

Result<formats::RangeRecords> CsvSplitter::Open(const MappedFile& file, const FileRange& range,
                                                const formats::FormatReadOptions& options,
                                                const SchemaPtr& schema) const {
  RETURN_NOT_OK(formats::CheckByteRange(file, range));
  RETURN_NOT_OK(CheckRowStart(file, range, range.begin));
  RETURN_NOT_OK(CheckRowStart(file, range, range.end));
  ReadOptions o = CsvOptions(options);
  o.schema = schema;
  const int64_t header_end = o.header ? HeaderRowEnd(file.data->view(), o.dialect) : 0;
  auto stream = formats::SpliceRange(file.data, file.path, header_end, range.begin, range.end);
  formats::RangeRecords out;
  out.map = stream->map();
  ASSIGN_OR_RETURN(out.source, OpenCsvSource(std::move(stream), o));
  return out;
}

}  // namespace recflow::csv
