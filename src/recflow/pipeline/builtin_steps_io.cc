// Built-in steps read and write: any input recflow reads, any dataset convert writes.
#include "recflow/dataset/inputs.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/ops/image/image_column.h"
#include "recflow/pipeline/builtin_steps_internal.h"

namespace recflow::pipeline {

namespace {

Result<std::optional<PCollection>> BuildRead(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::vector<std::string> paths, a.StringList("path"));
  if (paths.empty()) return a.Error("path", "no input given");
  for (std::string& path : paths) {
    ASSIGN_OR_RETURN(path, ctx.ArgPath("path", path));
  }
  dataset::InputSpec spec;
  ASSIGN_OR_RETURN(spec.from, a.String("format", "auto"));
  ASSIGN_OR_RETURN(spec.schema_file, a.String("schema", ""));
  if (!spec.schema_file.empty()) {
    ASSIGN_OR_RETURN(spec.schema_file, ctx.ArgPath("schema", spec.schema_file));
  }
  if (a.Has("schema_hints")) {
    ASSIGN_OR_RETURN(auto hints, a.StringMap("schema_hints"));
    for (const auto& [column, type] : hints) spec.schema_hints.push_back(column + ":" + type);
  }
  // The format words, parsed by each format (formats::FormatDescriptor::ParseReadOptions).
  for (const char* key : {"record_type", "delimiter", "quote", "comment"}) {
    if (!a.Has(key)) continue;
    ASSIGN_OR_RETURN(std::string value, a.String(key));
    spec.args.Set(key, std::move(value));
  }
  if (a.Has("header")) {
    ASSIGN_OR_RETURN(const bool header, a.Bool("header", true));
    spec.args.Set("header", header ? "true" : "false");
  }
  if (a.Has("max_record_bytes")) {
    ASSIGN_OR_RETURN(const int64_t max_record_bytes, a.Int("max_record_bytes"));
    spec.args.Set("max_record_bytes", std::to_string(max_record_bytes));
  }
  ASSIGN_OR_RETURN(std::vector<std::string> null_values, a.StringList("null_values"));
  spec.args.SetList("null_values", std::move(null_values));
  ASSIGN_OR_RETURN(spec.block_size, a.Int("block_size", spec.block_size));
  ASSIGN_OR_RETURN(spec.infer_rows, a.Int("infer_rows", spec.infer_rows));
  spec.skip_bad = ctx.options.on_error.mode != ErrorPolicy::Mode::kFail;
  auto options = dataset::MakeInputOptions(spec, ctx.pipeline->file_system());
  if (!options.ok()) return a.Error("path", options.status().message());
  std::string description;
  for (const std::string& path : paths) description += (description.empty() ? "" : " ") + path;
  // The inputs are opened on the pipeline's file system at build time, on the run's at run time.
  if (ctx.defer_missing_inputs) {
    // Only an input that is not there yet defers (an earlier job makes it); one that is there but
    // unreadable or of an unknown format fails the plan as it would fail the run.
    Result<std::vector<std::string>> expanded = ExpandInputs(paths, *ctx.pipeline->file_system());
    if (!expanded.ok() && expanded.status().code() == StatusCode::kNotFound) {
      return ctx.pipeline->ReadDeferred(ctx.name, InputsFactory(paths, *options), description,
                                        expanded.status().message());
    }
  }
  // Standard input or a FIFO is read by the source opened now for the schema, and only by it.
  const bool reopenable = CanReopenInputs(paths, *ctx.pipeline->file_system());
  return ctx.pipeline->ReadFiles(ctx.name, InputFiles{std::move(paths), *std::move(options)}, description,
                                 ctx.options.on_error, reopenable, ctx.read_schema);
}

Result<std::optional<PCollection>> BuildWrite(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  dataset::OutputSpec spec;
  ASSIGN_OR_RETURN(spec.output, a.String("path"));
  ASSIGN_OR_RETURN(spec.output, ctx.ArgPath("path", spec.output));
  ASSIGN_OR_RETURN(spec.format, a.String("format", spec.format));
  for (const char* key : {"record_type", "decimals", "delimiter"}) {
    if (!a.Has(key)) continue;
    ASSIGN_OR_RETURN(std::string value, a.String(key));
    spec.args.Set(key, std::move(value));
  }
  ASSIGN_OR_RETURN(spec.compression, a.String("compression", spec.compression));
  ASSIGN_OR_RETURN(int64_t level, a.Int("level", -1));
  spec.level = static_cast<int>(level);
  ASSIGN_OR_RETURN(spec.shards, a.Int("shards", 0));
  ASSIGN_OR_RETURN(spec.max_records_per_shard, a.Int("max_records_per_shard", 0));
  ASSIGN_OR_RETURN(spec.max_bytes_per_shard, a.Int("max_bytes_per_shard", 0));
  ASSIGN_OR_RETURN(spec.naming, a.String("naming", spec.naming));
  ASSIGN_OR_RETURN(spec.prefix, a.String("prefix", spec.prefix));
  ASSIGN_OR_RETURN(spec.partition_by, a.StringList("partition_by"));
  ASSIGN_OR_RETURN(spec.mode, a.String("mode", spec.mode));
  ASSIGN_OR_RETURN(spec.sync, a.Bool("sync", true));
  auto options = dataset::MakeSinkOptions(spec);
  if (!options.ok()) return a.Error("path", options.status().message());
  if (spec.format == "tfrecord") {
    for (const FieldPtr& field : ctx.input().schema()->fields()) {
      if (!ops::ImagePixelType(*field->type()).ok()) continue;
      return a.Error("format", "column '" + field->name() +
                                   "' holds decoded images: encode them first (encode_image to png or jpeg, or "
                                   "to_example with image: " + field->name() + ")");
    }
  }
  ctx.pipeline->Write(ctx.name, ctx.input(), std::move(options).ValueUnsafe(),
                      spec.format + " " + spec.output);
  return std::optional<PCollection>();
}

}  // namespace

void AddIoSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"read", "read files, directories or globs of any format recflow reads", "path", 0, 0,
                               BuildRead, NodeKind::kRead});
  (void)registry->Add(StepType{"write", "write a sharded, partitioned, committed dataset", "path", 1, 1, BuildWrite,
                               NodeKind::kWrite});
}

}  // namespace recflow::pipeline
