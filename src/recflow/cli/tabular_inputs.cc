// OpenTabularInputs: the format and partition checks that send cat and inspect through a Source.
#include "recflow/cli/tabular_inputs.h"

#include <filesystem>

#include "recflow/dataset/inputs.h"
#include "recflow/dataset/partition_discovery.h"

namespace recflow::cli {
namespace {

/// True when some directory argument holds partition directories.
Result<bool> AnyPartitionedDirectory(const std::vector<std::string>& paths) {
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path == "-" || !std::filesystem::is_directory(path, ec)) continue;
    ASSIGN_OR_RETURN(std::vector<std::string> files, ExpandInputs({path}));
    ASSIGN_OR_RETURN(dataset::DiscoveredPartitions found, dataset::DiscoverDatasetPartitions(path, files));
    if (found.schema->num_fields() > 0) return true;
  }
  return false;
}

}  // namespace

Result<std::unique_ptr<Source>> OpenTabularInputs(const InputFlags& inputs, const SourceFlags& source) {
  ASSIGN_OR_RETURN(pipeline::InputFormat format, pipeline::ParseInputFormat(source.from));
  bool tabular = format != pipeline::InputFormat::kAuto && format != pipeline::InputFormat::kTfrecord;
  if (format == pipeline::InputFormat::kAuto) {
    ASSIGN_OR_RETURN(std::vector<std::string> files, ExpandInputs(inputs.paths));
    for (const std::string& file : files) {
      Result<pipeline::InputFormat> detected = pipeline::DetectInputFormat(file);
      tabular = tabular || (detected.ok() && *detected != pipeline::InputFormat::kTfrecord);
    }
    // Without another format's suffix or magic every input is TFRecord, whatever its name.
    if (!tabular) format = pipeline::InputFormat::kTfrecord;
  }
  if (!tabular) {
    ASSIGN_OR_RETURN(tabular, AnyPartitionedDirectory(inputs.paths));
  }
  if (!tabular) return std::unique_ptr<Source>();
  pipeline::InputOptions options;
  RETURN_NOT_OK(ConfigureInputs(source, inputs.record_type, inputs.skip_corrupt, &options));
  options.format = format;
  ASSIGN_OR_RETURN(options.tfrecord.reader, ReaderOptionsFromFlags(inputs));
  return pipeline::OpenInputs(inputs.paths, options);
}

}  // namespace recflow::cli
