// RunSplits: detected inputs turned into dataset::SplitInputs, cut, printed one per line.
#include "recflow/cli/splits_command.h"

#include <filesystem>

#include "recflow/core/compression.h"
#include "recflow/dataset/partition_values.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/dataset/split_plan.h"
#include "recflow/dataset/split_source.h"
#include "recflow/formats/tfrecord/tfrecord_format.h"

namespace recflow::cli {

namespace {

/// What MakeSplits needs to know of one detected file.
dataset::SplitInput InputOf(const dataset::ResolvedInput& file, const Inputs& inputs, const Schema& partitions) {
  dataset::SplitInput input;
  // Another process, in another directory, opens the split by its path.
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(file.path, ec);
  input.path = ec || file.path == "-" ? file.path : absolute.lexically_normal().string();
  input.format = std::string(file.detected.format->name());
  Compression codec = formats::ReadableCompression(file.detected.sniffed.codec).value_or(Compression::kNone);
  // --compression names the codec of TFRecord input, as the reader would use it.
  if (input.format == "tfrecord") {
    codec = tfrecord::WithDetectedCodec(inputs.reader_options, file.detected).compression;
  }
  input.compression = std::string(CompressionName(codec));
  input.arrow_file = file.detected.sniffed.content == formats::ContentKind::kArrowFile;
  for (int i = 0; i < partitions.num_fields(); ++i) {
    input.partition.push_back({partitions.field(i)->name(), partitions.field(i)->type()->ToString(),
                               dataset::PartitionValueText(file.partition[static_cast<size_t>(i)])});
  }
  return input;
}

}  // namespace

Status RunSplits(const SplitsFlags& flags, StdoutWriter* out) {
  ASSIGN_OR_RETURN(Inputs inputs, ResolveInputs(flags.inputs, flags.source));
  ASSIGN_OR_RETURN(const dataset::InputOptions input_options, dataset::MakeInputOptions(inputs.spec));
  ASSIGN_OR_RETURN(const dataset::SplitReadOptions read, dataset::SplitReadOptionsOf(input_options));
  dataset::SplitOptions options = dataset::SplitOptions::Defaults();
  options.target_bytes = flags.split_size;
  options.csv_dialect = read.csv.dialect;
  std::vector<dataset::SplitInput> split_inputs;
  for (const dataset::ResolvedInput& file : inputs.resolved.files) {
    split_inputs.push_back(InputOf(file, inputs, *inputs.resolved.partition_schema));
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
