// TfrecordSplitter: the TFRecord format's record boundaries (its descriptor's splitter, which holds one).
#pragma once

#include "recflow/formats/registry/format_splitter.h"

namespace recflow::tfrecord {

/// Plans even byte cuts (reading nothing); opens a range from the first whole valid record at or
/// after its begin (a header whose length CRC and data CRC check, FindRecordStart) to the last
/// whose header starts before its end. Its options are TypedReadOptions<tfrecord::SourceOptions>.
class TfrecordSplitter final : public formats::EvenByteSplitter {
 public:
  Result<formats::RangeRecords> Open(const formats::MappedFile& file, const formats::FileRange& range,
                                     const formats::FormatReadOptions& options, const SchemaPtr& schema) const override;
};

}  // namespace recflow::tfrecord
