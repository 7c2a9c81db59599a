// RunSplits: detected inputs turned into dataset::SplitInputs, cut, printed one per line.
#include "recflow/cli/splits_command.h"

#include "recflow/dataset/io_specs.h"
#include "recflow/dataset/split_plan.h"

namespace recflow::cli {

Status RunSplits(const SplitsFlags& flags, StdoutWriter* out) {
  ASSIGN_OR_RETURN(Inputs inputs, ResolveInputs(flags.inputs, flags.source));
  dataset::SplitOptions options = dataset::SplitOptions::Defaults();
  options.target_bytes = flags.split_size;
  ASSIGN_OR_RETURN(options.read, dataset::MakeInputOptions(inputs.spec, LocalFileSystem::Instance()));
  std::vector<dataset::SplitInput> split_inputs;
  for (const dataset::ResolvedInput& file : inputs.resolved.files) {
    ASSIGN_OR_RETURN(dataset::SplitInput input, dataset::SplitInputOf(file, options.read, *inputs.resolved.partition_schema));
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
