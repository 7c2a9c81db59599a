// JsonlSplitter: the JSON Lines format's record boundaries (its descriptor's splitter, which holds one).
#pragma once

#include "recflow/formats/registry/format_splitter.h"

namespace recflow::jsonl {

/// Plans even byte cuts (reading nothing); opens the lines that start in a range
/// (LineStartAtOrAfter at both ends). Its options are TypedReadOptions<jsonl::ReadOptions>.
class JsonlSplitter final : public formats::EvenByteSplitter {
 public:
  Result<formats::RangeRecords> Open(const formats::MappedFile& file, const formats::FileRange& range,
                                     const formats::FormatReadOptions& options, const SchemaPtr& schema) const override;
};

}  // namespace recflow::jsonl
