// JsonlSplitter: even byte cuts; a range reads the lines that start inside it.
#include "recflow/formats/jsonl/jsonl_splitter_internal.h"

#include <algorithm>

#include "recflow/formats/jsonl/jsonl_source.h"
#include "recflow/formats/jsonl/line_boundary.h"
#include "recflow/formats/registry/format_descriptor.h"

namespace recflow::jsonl {

Result<formats::RangeRecords> JsonlSplitter::Open(const formats::MappedFile& file, const formats::FileRange& range,
                                                  const formats::FormatReadOptions& options,
                                                  const SchemaPtr& schema) const {
  RETURN_NOT_OK(formats::CheckByteRange(file, range));
  ReadOptions o = static_cast<const formats::TypedReadOptions<ReadOptions>&>(options).options();
  o.schema = schema;
  const int64_t begin = LineStartAtOrAfter(file.data->view(), range.begin);
  const int64_t end = std::max(begin, LineStartAtOrAfter(file.data->view(), range.end));
  auto stream = std::make_unique<formats::SplicedInputStream>(file.data, file.path, 0, begin, end);
  formats::RangeRecords out;
  out.map = stream->map();
  ASSIGN_OR_RETURN(out.source, OpenJsonlSource(std::move(stream), o));
  return out;
}

}  // namespace recflow::jsonl
