// Registering the input-format flags and turning them into pipeline::InputOptions.
#include "recflow/cli/source_flags.h"

#include "recflow/formats/schema_json.h"

namespace recflow::cli {

void AddSourceFlags(CLI::App* c, SourceFlags* f) {
  c->add_option("--from", f->from, "Input format (default: from each file's suffix)")
      ->check(CLI::IsMember({"auto", "csv", "jsonl", "json", "tfrecord", "avro", "arrow", "feather"}));
  c->add_option("--schema", f->schema_file, "JSON schema file overriding inference");
  c->add_option("--delimiter", f->delimiter, "CSV field delimiter (one character, or 'tab')");
  c->add_option("--quote", f->quote, "CSV quote character");
  c->add_flag("--no-header", f->no_header, "CSV input has no header row (columns _c0, _c1, ...)");
  c->add_option("--null-values", f->null_values, "CSV texts read as null (comma-separated; default: empty)")
      ->delimiter(',')
      ->each([f](const std::string&) { f->null_values_given = true; });
  c->add_option("--comment", f->comment, "CSV comment line character");
  c->add_option("--block-size", f->block_size, "Input bytes per parallel unit")->check(CLI::PositiveNumber);
  c->add_option("--infer-rows", f->infer_rows, "Records sampled for type inference")->check(CLI::PositiveNumber);
}

Result<char> SingleChar(const std::string& flag, const std::string& value) {
  if (value == "\\t" || value == "tab") return '\t';
  if (value.size() != 1) return Status::InvalidArgument(flag + " must be a single character, got '" + value + "'");
  return value[0];
}

Status ConfigureInputs(const SourceFlags& flags, example::RecordType record_type, bool skip_bad,
                       pipeline::InputOptions* in) {
  ASSIGN_OR_RETURN(in->format, pipeline::ParseInputFormat(flags.from));
  SchemaPtr schema;
  if (!flags.schema_file.empty()) {
    ASSIGN_OR_RETURN(schema, ReadSchemaFile(flags.schema_file));
  }
  // CSV
  ASSIGN_OR_RETURN(in->csv.dialect.delimiter, SingleChar("--delimiter", flags.delimiter));
  ASSIGN_OR_RETURN(in->csv.dialect.quote, SingleChar("--quote", flags.quote));
  if (!flags.comment.empty()) {
    ASSIGN_OR_RETURN(in->csv.dialect.comment, SingleChar("--comment", flags.comment));
  }
  in->csv.header = !flags.no_header;
  if (flags.null_values_given) in->csv.null_values = flags.null_values;
  in->csv.block_size = flags.block_size;
  in->csv.inference_rows = flags.infer_rows;
  in->csv.schema = schema;
  in->csv.bad_rows = skip_bad ? csv::BadRowsMode::kSkip : csv::BadRowsMode::kFail;
  RETURN_NOT_OK(in->csv.Validate());
  // JSON Lines
  in->jsonl.block_size = flags.block_size;
  in->jsonl.inference_rows = flags.infer_rows;
  in->jsonl.schema = schema;
  in->jsonl.bad_rows = skip_bad ? jsonl::BadRowsMode::kSkip : jsonl::BadRowsMode::kFail;
  RETURN_NOT_OK(in->jsonl.Validate());
  // TFRecord
  in->tfrecord.record_type = record_type;
  in->tfrecord.inference_records = flags.infer_rows;
  in->tfrecord.schema = schema;
  in->tfrecord.skip_bad_records = skip_bad;
  RETURN_NOT_OK(in->tfrecord.Validate());
  // Avro (its schema is in the file; --schema does not apply)
  in->avro.bad_blocks = skip_bad ? avro::BadBlocksMode::kSkip : avro::BadBlocksMode::kFail;
  return in->avro.Validate();
}

}  // namespace recflow::cli
