// InputSpec and OutputSpec → InputOptions and SinkOptions: the registry's formats, compression, sharding, naming.
#include "recflow/dataset/io_specs.h"

#include "recflow/core/compression.h"
#include "recflow/core/local_path.h"
#include "recflow/dataset/save_mode.h"
#include "recflow/formats/builtin/builtin_formats.h"
#include "recflow/formats/schema_json.h"

namespace recflow::dataset {

Result<InputOptions> MakeInputOptions(const InputSpec& spec, std::shared_ptr<FileSystem> file_system) {
  if (file_system == nullptr) return Status::InvalidArgument("input options without a file system");
  const formats::FormatRegistry& registry = formats::BuiltinFormats();
  InputOptions in;
  ASSIGN_OR_RETURN(in.format, registry.ParseInputFormat(spec.from));
  formats::ReadSettings& settings = in.settings;
  settings.file_system = std::move(file_system);
  if (!spec.schema_file.empty()) {
    ASSIGN_OR_RETURN(const std::string schema_file, LocalPath(spec.schema_file));
    ASSIGN_OR_RETURN(settings.schema, ReadSchemaFile(schema_file, *settings.file_system));
  }
  if (settings.schema != nullptr && !spec.schema_hints.empty()) {
    return Status::InvalidArgument("schema hints refine an inferred schema: give the types in the schema file instead");
  }
  ASSIGN_OR_RETURN(settings.type_hints, ParseSchemaHints(spec.schema_hints));
  if (settings.type_hints->num_fields() == 0) settings.type_hints = nullptr;
  settings.skip_bad = spec.skip_bad;
  settings.block_size = spec.block_size;
  settings.infer_rows = spec.infer_rows;
  settings.args = spec.args;
  for (const formats::FormatDescriptor* format : registry.formats()) {
    ASSIGN_OR_RETURN(in.read_options[format], format->ParseReadOptions(settings));
  }
  return in;
}

namespace {

/// InvalidArgument when `args` give a word that another format than `format` owns
/// (FormatDescriptor::own_write_keys) a value other than its default.
Status CheckOwnWriteKeys(const formats::FormatRegistry& registry, const formats::FormatDescriptor& format,
                         const OutputSpec& spec) {
  for (const formats::FormatDescriptor* owner : registry.formats()) {
    if (owner == &format) continue;
    for (const formats::OwnWriteKey& key : owner->own_write_keys()) {
      ASSIGN_OR_RETURN(const std::string value, spec.args.String(key.key, key.default_value));
      if (value == key.default_value) continue;
      return Status::InvalidArgument(std::string(key.key) + " '" + value + "' is for " + std::string(owner->name()) +
                                     " output, not " + spec.format);
    }
  }
  return Status::OK();
}

/// The output words of the formats that compress their own bodies, joined with " or ".
std::string BodyCompressingWords(const formats::FormatRegistry& registry) {
  std::string words;
  for (const formats::FormatDescriptor* format : registry.formats()) {
    if (!format->compresses_bodies()) continue;
    for (std::string_view word : format->output_names()) words += (words.empty() ? "" : " or ") + std::string(word);
  }
  return words;
}

Result<Sharding> MakeSharding(const OutputSpec& spec) {
  const int given = (spec.shards > 0) + (spec.max_records_per_shard > 0) + (spec.max_bytes_per_shard > 0);
  if (given > 1) return Status::InvalidArgument("shards, max records per shard and max bytes per shard exclude each other");
  Sharding sharding;
  if (spec.max_records_per_shard > 0) {
    sharding.kind = Sharding::Kind::kMaxRecords;
    sharding.value = spec.max_records_per_shard;
  } else if (spec.max_bytes_per_shard > 0) {
    sharding.kind = Sharding::Kind::kMaxBytes;
    sharding.value = spec.max_bytes_per_shard;
  } else {
    sharding.value = spec.shards > 0 ? spec.shards : 1;
  }
  return sharding;
}

}  // namespace

Result<SinkOptions> MakeSinkOptions(const OutputSpec& spec) {
  const formats::FormatRegistry& registry = formats::BuiltinFormats();
  SinkOptions options = SinkOptions::Defaults();
  ASSIGN_OR_RETURN(options.output, LocalPath(spec.output));
  ASSIGN_OR_RETURN(const formats::FormatDescriptor* format, registry.ParseOutputFormat(spec.format));
  RETURN_NOT_OK(CheckOwnWriteKeys(registry, *format, spec));
  formats::WriteSettings settings;
  settings.name = spec.format;
  settings.compression = spec.compression;
  settings.level = spec.level;
  settings.args = spec.args;
  ASSIGN_OR_RETURN(options.format, format->MakeOutput(settings));
  if (!format->compresses_bodies()) {
    if (spec.compression == "lz4" || spec.compression == "zstd") {
      return Status::InvalidArgument("compression " + spec.compression + " is for Arrow bodies: use it with " +
                                     BodyCompressingWords(registry));
    }
    ASSIGN_OR_RETURN(options.compression, ParseCompression(spec.compression));
  }
  options.level = spec.level;
  ASSIGN_OR_RETURN(options.sharding, MakeSharding(spec));
  if (spec.naming != "beam" && spec.naming != "spark") {
    return Status::InvalidArgument("naming must be beam or spark, not '" + spec.naming + "'");
  }
  options.naming = spec.naming == "spark" ? ShardNaming::kSpark : ShardNaming::kBeam;
  options.prefix = spec.prefix;
  options.partition_by = spec.partition_by;
  ASSIGN_OR_RETURN(options.mode, ParseSaveMode(spec.mode));
  options.sync = spec.sync;
  RETURN_NOT_OK(options.Validate());
  return options;
}

}  // namespace recflow::dataset
