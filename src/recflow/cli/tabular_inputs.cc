// OpenTabularInputs: the format, partition and pipe checks that send cat and inspect through a Source.
#include "recflow/cli/tabular_inputs.h"

#include "recflow/dataset/dataset_source.h"

namespace recflow::cli {

Result<std::unique_ptr<Source>> OpenTabularInputs(const Inputs& inputs, bool pipes_as_source) {
  // Partition columns and a dataset of zero rows (its recorded columns) need a Source.
  bool tabular = inputs.resolved.partition_schema->num_fields() > 0 || inputs.resolved.empty_dataset_schema != nullptr;
  for (const dataset::ResolvedInput& file : inputs.resolved.files) {
    tabular = tabular || file.detected.format->name() != "tfrecord" ||
              (pipes_as_source && !file.detected.rereadable);
  }
  if (!tabular) return std::unique_ptr<Source>();
  ASSIGN_OR_RETURN(const dataset::InputOptions options, dataset::MakeInputOptions(inputs.spec, LocalFileSystem::Instance()));
  return dataset::OpenInputs(inputs.resolved, options);
}

}  // namespace recflow::cli
