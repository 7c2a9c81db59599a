// AvroSplitter: even byte cuts; a range reads the blocks that start inside it, behind the header.
#include "recflow/formats/avro/avro_splitter_internal.h"

#include <algorithm>

#include "recflow/formats/avro/avro_source.h"
#include "recflow/formats/avro/block_boundary.h"
#include "recflow/formats/registry/format_descriptor.h"

namespace recflow::avro {

Result<formats::RangeRecords> AvroSplitter::Open(const formats::MappedFile& file, const formats::FileRange& range,
                                                 const formats::FormatReadOptions& options,
                                                 const SchemaPtr& schema) const {
  RETURN_NOT_OK(formats::CheckByteRange(file, range));
  ASSIGN_OR_RETURN(const ContainerLayout layout, ReadContainerLayout(file.data, file.path));
  const int64_t begin = BlockStartAtOrAfter(*file.data, layout, range.begin);
  const int64_t end = std::max(begin, BlockStartAtOrAfter(*file.data, layout, range.end));
  auto stream = formats::SpliceRange(file.data, file.path, layout.header_size, begin, end);
  formats::RangeRecords out;
  out.map = stream->map();
  const ReadOptions& o = static_cast<const formats::TypedReadOptions<ReadOptions>&>(options).options();
  ASSIGN_OR_RETURN(out.source, OpenAvroSource(std::move(stream), o));
  return out;
}

}  // namespace recflow::avro
