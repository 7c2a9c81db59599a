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

Result<std::unique_ptr<Source>> OpenTabularInputs(const InputFlags& inputs, const SourceFlags& source,
                                                  bool stdin_as_source) {
  ASSIGN_OR_RETURN(pipeline::InputFormat format, pipeline::ParseInputFormat(source.from));
  ASSIGN_OR_RETURN(std::vector<std::string> files, ExpandInputs(inputs.paths));
  bool tabular = files.empty();  // no data file: the schema file says the columns (OpenInputs)
  for (const std::string& file : files) {
    // Detection errors (a foreign format, bytes that say nothing) end here, before any reading.
    ASSIGN_OR_RETURN(pipeline::DetectedInput detected, pipeline::DetectInputFormat(file, format));
    tabular = tabular || detected.format != pipeline::InputFormat::kTfrecord || (file == "-" && stdin_as_source);
  }
  if (!tabular) {
    ASSIGN_OR_RETURN(tabular, AnyPartitionedDirectory(inputs.paths));
  }
  if (!tabular) return std::unique_ptr<Source>();
  pipeline::InputOptions options;
  RETURN_NOT_OK(ConfigureInputs(source, inputs.record_type, inputs.skip_corrupt, &options));
  ASSIGN_OR_RETURN(options.tfrecord.reader, ReaderOptionsFromFlags(inputs, source));
  return pipeline::OpenInputs(inputs.paths, options);
}

}  // namespace recflow::cli
