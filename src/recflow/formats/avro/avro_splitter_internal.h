// AvroSplitter: the Avro format's record boundaries (its descriptor's splitter, which holds one).
#pragma once

#include "recflow/formats/registry/format_splitter.h"

namespace recflow::avro {

/// Plans even byte cuts (reading nothing); opens the blocks that start in a range (after a sync
/// marker, BlockStartAtOrAfter), read behind the file's header. The file's own schema is read
/// (the schema given must match it). Its options are TypedReadOptions<avro::ReadOptions>.
class AvroSplitter final : public formats::EvenByteSplitter {
 public:
  Result<formats::RangeRecords> Open(const formats::MappedFile& file, const formats::FileRange& range,
                                     const formats::FormatReadOptions& options, const SchemaPtr& schema) const override;
};

}  // namespace recflow::avro
