// Registering the input-format flags and turning them into pipeline::InputOptions.
#include "recflow/cli/source_flags.h"

namespace recflow::cli {

void AddSourceFlags(CLI::App* c, SourceFlags* f) {
  c->add_option("--from", f->from, "Input format (default: from each file's suffix)")
      ->check(CLI::IsMember({"auto", "csv", "jsonl", "json", "tfrecord", "avro", "arrow", "feather"}));
  c->add_option("--schema", f->schema_file, "JSON schema file overriding inference");
  c->add_option("--schema-hint", f->schema_hints,
                "NAME:TYPE overriding the inferred type of one column (repeatable or comma-separated)")
      ->delimiter(',');
  c->add_option("--delimiter", f->delimiter, "CSV field delimiter (one character, or 'tab')");
  c->add_option("--quote", f->quote, "CSV quote character");
  c->add_flag("--no-header", f->no_header, "CSV input has no header row (columns _c0, _c1, ...)");
  c->add_option("--null-values", f->null_values,
                "CSV texts read as null besides the empty field (comma-separated; a quoted \"\" is never null)")
      ->delimiter(',');
  c->add_option("--comment", f->comment, "CSV comment line character");
  c->add_option("--block-size", f->block_size, "Input bytes per parallel unit")->check(CLI::PositiveNumber);
  c->add_option("--infer-rows", f->infer_rows, "Records sampled for type inference")->check(CLI::PositiveNumber);
  c->add_option("--max-record-bytes", f->max_record_bytes,
                "TFRecord: the largest record read, and the most decompressed whole into memory (default 1 GiB; "
                "suffixes K, M, G)")
      ->transform(CLI::AsSizeValue(/*kb_is_1000=*/false));
}

Status ConfigureInputs(const SourceFlags& flags, const std::string& record_type, bool skip_bad,
                       pipeline::InputOptions* in) {
  pipeline::InputSpec spec = flags;
  spec.record_type = record_type;
  spec.skip_bad = skip_bad;
  ASSIGN_OR_RETURN(*in, pipeline::MakeInputOptions(spec));
  return Status::OK();
}

}  // namespace recflow::cli
