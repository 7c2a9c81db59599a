// MakeSplits: each file stamped, then cut by its format's splitter (a compressed file, or a format without one: whole).
#include "recflow/dataset/split_plan.h"

#include <filesystem>

#include "recflow/columnar/utf8.h"
#include "recflow/core/compression.h"
#include "recflow/dataset/partition_values.h"
#include "recflow/dataset/split_open_internal.h"

namespace recflow::dataset {

namespace {

Status AddSplits(const SplitInput& input, const SplitOptions& options, std::vector<Split>* out) {
  if (input.path == "-") {
    return Status::InvalidArgument("standard input cannot be split (it is read once, front to back): save it to a file");
  }
  if (!IsValidUtf8(input.path)) {
    return Status::InvalidArgument("a split names its file in JSON, which needs a UTF-8 path").WithFile(input.path);
  }
  if (input.format == nullptr) return Status::InvalidArgument("no format to split by").WithFile(input.path);
  Split stamped;
  stamped.path = input.path;
  stamped.format = std::string(input.format->name());
  stamped.compression = input.compression;
  stamped.partition = input.partition;
  RETURN_NOT_OK(StampSplitFile(&stamped));
  std::vector<formats::FileRange> ranges;
  const formats::FormatSplitter* splitter = input.format->splitter();
  if (input.compression != "none" || splitter == nullptr) {
    ranges.push_back({SplitUnit::kBytes, 0, stamped.file_size});
  } else {
    ASSIGN_OR_RETURN(const std::shared_ptr<const formats::FormatReadOptions> read_options,
                     ReadOptionsFor(options.read, *input.format));
    ASSIGN_OR_RETURN(const formats::MappedFile file, MapSplitFile(stamped, *options.read.settings.file_system));
    ASSIGN_OR_RETURN(ranges, splitter->Plan(file, options.target_bytes, *read_options));
  }
  for (const formats::FileRange& range : ranges) {
    Split split = stamped;
    split.unit = range.unit;
    split.begin = range.begin;
    split.end = range.end;
    out->push_back(std::move(split));
  }
  return Status::OK();
}

}  // namespace

Result<SplitInput> SplitInputOf(const ResolvedInput& file, const InputOptions& read, const Schema& partitions) {
  SplitInput input;
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(file.path, ec);
  input.path = ec || file.path == "-" ? file.path : absolute.lexically_normal().string();
  input.format = file.detected.format;
  ASSIGN_OR_RETURN(const auto read_options, ReadOptionsFor(read, *input.format));
  input.compression = std::string(CompressionName(input.format->ReadCodec(*read_options, file.detected)));
  for (int i = 0; i < partitions.num_fields(); ++i) {
    input.partition.push_back({partitions.field(i)->name(), partitions.field(i)->type()->ToString(),
                               PartitionValueText(file.partition[static_cast<size_t>(i)])});
  }
  return input;
}

Status SplitOptions::Validate() const {
  if (target_bytes < 1) return Status::InvalidArgument("the split size must be at least 1 byte");
  return Status::OK();
}

Result<std::vector<Split>> MakeSplits(const std::vector<SplitInput>& inputs, const SplitOptions& options) {
  RETURN_NOT_OK(options.Validate());
  std::vector<Split> splits;
  for (const SplitInput& input : inputs) RETURN_NOT_OK(AddSplits(input, options, &splits));
  return splits;
}

}  // namespace recflow::dataset
