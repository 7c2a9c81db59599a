// Turning the input-format flags (registered in command_line.cc) into a dataset::InputSpec and InputOptions.
#include "recflow/cli/source_flags.h"

namespace recflow::cli {

dataset::InputSpec InputSpecOf(const SourceFlags& flags, const std::string& record_type, bool skip_bad) {
  dataset::InputSpec spec;
  spec.from = flags.from;
  spec.schema_file = flags.schema_file;
  spec.schema_hints = flags.schema_hints;
  spec.block_size = flags.block_size;
  spec.infer_rows = flags.infer_rows;
  spec.skip_bad = skip_bad;
  spec.args.Set("delimiter", flags.delimiter);
  spec.args.Set("quote", flags.quote);
  spec.args.Set("header", flags.no_header ? "false" : "true");
  spec.args.SetList("null_values", flags.null_values);
  spec.args.Set("comment", flags.comment);
  spec.args.Set("record_type", record_type);
  spec.args.Set("max_record_bytes", std::to_string(flags.max_record_bytes));
  return spec;
}

}  // namespace recflow::cli
