// TfrecordSplitter: even byte cuts; a range reads the records whose checked headers start inside it.
#include "recflow/formats/tfrecord/tfrecord_splitter_internal.h"

#include "recflow/formats/registry/format_descriptor.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"

namespace recflow::tfrecord {

Result<formats::RangeRecords> TfrecordSplitter::Open(const formats::MappedFile& file, const formats::FileRange& range,
                                                     const formats::FormatReadOptions& options,
                                                     const SchemaPtr& schema) const {
  RETURN_NOT_OK(formats::CheckByteRange(file, range));
  SourceOptions o = static_cast<const formats::TypedReadOptions<SourceOptions>&>(options).options();
  o.schema = schema;
  ASSIGN_OR_RETURN(auto reader, RecordReader::FromBufferRange(file.data, file.path, range.begin, range.end, o.reader));
  formats::RangeRecords out;  // the reader's offsets are the file's
  ASSIGN_OR_RETURN(out.source, OpenTfrecordSource(std::move(reader), o));
  return out;
}

}  // namespace recflow::tfrecord
