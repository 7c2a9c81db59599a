// OpenTabularInputs: the format, partition and pipe checks that send cat and inspect through a Source.
#include "recflow/cli/tabular_inputs.h"

#include "recflow/pipeline/input_source.h"

namespace recflow::cli {

Result<std::unique_ptr<Source>> OpenTabularInputs(const Inputs& inputs, const InputFlags& flags,
                                                  const SourceFlags& source, bool pipes_as_source) {
  // Partition columns and a dataset of zero rows (its recorded columns) need a Source.
  bool tabular = inputs.resolved.partition_schema->num_fields() > 0 || inputs.resolved.empty_dataset_schema != nullptr;
  for (const pipeline::ResolvedInput& file : inputs.resolved.files) {
    tabular = tabular || file.detected.format != pipeline::InputFormat::kTfrecord ||
              (pipes_as_source && !file.detected.rereadable);
  }
  if (!tabular) return std::unique_ptr<Source>();
  pipeline::InputOptions options;
  RETURN_NOT_OK(ConfigureInputs(source, flags.record_type, flags.skip_corrupt, &options));
  options.tfrecord.reader = inputs.reader_options;
  return pipeline::OpenInputs(inputs.resolved, options);
}

}  // namespace recflow::cli
