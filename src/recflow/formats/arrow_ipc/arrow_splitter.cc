// ArrowSplitter: an IPC file cut between record batches from its footer; a stream read whole.
#include "recflow/formats/arrow_ipc/arrow_splitter_internal.h"

#include "recflow/formats/arrow_ipc/arrow_source.h"
#include "recflow/formats/arrow_ipc/file_reader.h"
#include "recflow/formats/arrow_ipc/looks_like.h"
#include "recflow/formats/registry/format_descriptor.h"

namespace recflow::arrow_ipc {

namespace {

using formats::FileRange;
using formats::SplitUnit;

const IpcReadOptions& IpcOptions(const formats::FormatReadOptions& options) {
  return static_cast<const formats::TypedReadOptions<IpcReadOptions>&>(options).options();
}

bool IsIpcFile(const formats::MappedFile& file) {
  const Buffer& data = *file.data;
  return LooksLikeFile(std::string_view(reinterpret_cast<const char*>(data.data()), static_cast<size_t>(data.size())));
}

}  // namespace

Result<std::vector<formats::FileRange>> ArrowSplitter::Plan(const formats::MappedFile& file, int64_t target_bytes,
                                                            const formats::FormatReadOptions& options) const {
  if (!IsIpcFile(file)) return std::vector<FileRange>{{SplitUnit::kBytes, 0, file.data->size()}};
  ASSIGN_OR_RETURN(auto footer, FileReader::Open(file.data, file.path));
  const int batches = footer->num_record_batches();
  std::vector<FileRange> ranges;
  int first = 0;
  int64_t bytes = 0;
  for (int i = 0; i < batches; ++i) {
    const FileBlock& block = footer->record_batch_block(i);
    bytes += block.metadata_length + block.body_length;
    if (bytes >= target_bytes || i + 1 == batches) {
      ranges.push_back({SplitUnit::kBatches, first, i + 1});
      first = i + 1;
      bytes = 0;
    }
  }
  if (batches == 0) ranges.push_back({SplitUnit::kBatches, 0, 0});
  return ranges;
}

Result<formats::RangeRecords> ArrowSplitter::Open(const formats::MappedFile& file, const FileRange& range,
                                                  const formats::FormatReadOptions& options,
                                                  const SchemaPtr& schema) const {
  formats::RangeRecords out;
  if (range.unit == SplitUnit::kBatches) {
    ASSIGN_OR_RETURN(out.source,
                     OpenArrowFileBatches(file.data, file.path, range.begin, range.end, IpcOptions(options)));
    return out;
  }
  RETURN_NOT_OK(formats::CheckWholeFileRange(file, range, "an Arrow IPC stream"));
  const formats::ContentKind content =
      IsIpcFile(file) ? formats::ContentKind::kArrowFile : formats::ContentKind::kArrowStream;
  ASSIGN_OR_RETURN(out.source, OpenArrowSource(file.path, content, IpcOptions(options)));
  return out;
}

}  // namespace recflow::arrow_ipc
