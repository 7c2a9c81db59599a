// Turning the input-format flags (registered in command_line.cc) into pipeline::InputOptions.
#include "recflow/cli/source_flags.h"

namespace recflow::cli {

Status ConfigureInputs(const SourceFlags& flags, const std::string& record_type, bool skip_bad,
                       pipeline::InputOptions* in) {
  pipeline::InputSpec spec = flags;
  spec.record_type = record_type;
  spec.skip_bad = skip_bad;
  ASSIGN_OR_RETURN(*in, pipeline::MakeInputOptions(spec));
  return Status::OK();
}

}  // namespace recflow::cli
