// RunSplits: detected inputs turned into dataset::SplitInputs, cut, printed one per line.
#include "recflow/cli/splits_command.h"

#include <filesystem>

#include "recflow/core/compression.h"
#include "recflow/dataset/partition_values.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/dataset/split_plan.h"

namespace recflow::cli {

namespace {

/// What MakeSplits needs to know of one detected file read with `options`.
Result<dataset::SplitInput> InputOf(const dataset::ResolvedInput& file, const dataset::InputOptions& options,
                                    const Schema& partitions) {
  dataset::SplitInput input;
  // Another process, in another directory, opens the split by its path.
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(file.path, ec);
  input.path = ec || file.path == "-" ? file.path : absolute.lexically_normal().string();
  input.format = file.detected.format;
  // The codec the format reads the file with (TFRecord's --compression names it).
  ASSIGN_OR_RETURN(const auto read_options, dataset::ReadOptionsFor(options, *input.format));
  input.compression = std::string(CompressionName(input.format->ReadCodec(*read_options, file.detected)));
  for (int i = 0; i < partitions.num_fields(); ++i) {
    input.partition.push_back({partitions.field(i)->name(), partitions.field(i)->type()->ToString(),
                               dataset::PartitionValueText(file.partition[static_cast<size_t>(i)])});
  }
  return input;
}

}  // namespace

Status RunSplits(const SplitsFlags& flags, StdoutWriter* out) {
  ASSIGN_OR_RETURN(Inputs inputs, ResolveInputs(flags.inputs, flags.source));
  dataset::SplitOptions options = dataset::SplitOptions::Defaults();
  options.target_bytes = flags.split_size;
  ASSIGN_OR_RETURN(options.read, dataset::MakeInputOptions(inputs.spec, LocalFileSystem::Instance()));
  std::vector<dataset::SplitInput> split_inputs;
  for (const dataset::ResolvedInput& file : inputs.resolved.files) {
    ASSIGN_OR_RETURN(dataset::SplitInput input, InputOf(file, options.read, *inputs.resolved.partition_schema));
    split_inputs.push_back(std::move(input));
  }
  ASSIGN_OR_RETURN(const std::vector<dataset::Split> splits, dataset::MakeSplits(split_inputs, options));
  for (const dataset::Split& split : splits) {
    out->buffer()->append(dataset::SplitToJson(split));
    out->buffer()->push_back('\n');
    RETURN_NOT_OK(out->MaybeFlush());
  }
  return out->Flush();
}

}  // namespace recflow::cli
