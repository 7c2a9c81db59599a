// ArrowSplitter: the Arrow IPC format's record boundaries (its descriptor's splitter, which holds one).
#pragma once

#include "recflow/formats/registry/format_splitter.h"

namespace recflow::arrow_ipc {

/// Plans an IPC file (LooksLikeFile) as runs of consecutive record batches from its footer, each
/// adding up to at least the target bytes (the last fewer), and an IPC stream as one range of
/// the whole file (a stream is entered only at its start); opens batch ranges from the mapped
/// file and a whole-file range as the file or stream it is. Its options are
/// TypedReadOptions<IpcReadOptions>.
class ArrowSplitter final : public formats::FormatSplitter {
 public:
  Result<std::vector<formats::FileRange>> Plan(const formats::MappedFile& file, int64_t target_bytes,
                                               const formats::FormatReadOptions& options) const override;
  Result<formats::RangeRecords> Open(const formats::MappedFile& file, const formats::FileRange& range,
                                     const formats::FormatReadOptions& options, const SchemaPtr& schema) const override;
};

}  // namespace recflow::arrow_ipc
