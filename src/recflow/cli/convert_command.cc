// `recflow convert`: flags → input source, dataset sink and pipeline run; summary and bad-rows file.
#include "recflow/cli/convert_command.h"

#include <fmt/core.h>
#include <unistd.h>

#include <chrono>

#include "recflow/cli/progress.h"
#include "recflow/cli/source_flags.h"
#include "recflow/dataset/dataset_sink.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/formats/jsonl/json_writer.h"
#include "recflow/ops/columns/select.h"
#include "recflow/pipeline/convert_job.h"
#include "recflow/pipeline/dead_letters.h"

namespace recflow::cli {

namespace {

// The dataset the flags describe.
dataset::OutputSpec OutputSpecOf(const ConvertFlags& flags) {
  dataset::OutputSpec spec;
  spec.output = flags.output;
  spec.format = flags.to;
  spec.args.Set("record_type", flags.record_type);
  spec.args.Set("decimals", flags.decimals);
  spec.args.Set("delimiter", flags.source.delimiter);
  spec.compression = flags.compression;
  spec.level = flags.level;
  spec.shards = flags.shards;
  spec.max_records_per_shard = flags.max_records_per_shard;
  spec.max_bytes_per_shard = flags.max_bytes_per_shard;
  spec.naming = flags.naming;
  spec.prefix = flags.prefix;
  spec.partition_by = flags.partition_by;
  spec.mode = flags.mode;
  spec.sync = !flags.no_sync;
  return spec;
}

// The columns to keep: --select in order (none: all), then the partition columns not selected.
std::vector<std::string> SelectedColumns(const ConvertFlags& flags) {
  if (flags.select.empty()) return {};
  std::vector<std::string> names;
  for (const auto* list : {&flags.select, &flags.partition_by}) {
    for (const std::string& name : *list) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

void PrintSummaryJson(const pipeline::ConvertStats& s, const std::string& output, double seconds, StdoutWriter* out) {
  std::string& text = *out->buffer();
  jsonl::JsonWriter w(&text);
  w.BeginObject();
  w.Key("output");
  w.String(output);
  w.Key("records");
  w.Int(s.sink.records);
  w.Key("skipped");
  w.Int(s.skipped_records);
  w.Key("input_bytes");
  w.Int(s.input_bytes);
  w.Key("files");
  w.Int(s.sink.files);
  w.Key("partitions");
  w.Int(s.sink.partitions);
  w.Key("raw_bytes");
  w.Int(s.sink.raw_bytes);
  w.Key("bytes_written");
  w.Int(s.sink.written_bytes);
  w.Key("narrowed_doubles");
  w.Int(s.sink.narrowed_doubles);
  w.Key("threads");
  w.Int(s.threads);
  w.Key("seconds");
  w.Double(seconds);
  w.EndObject();
  text.push_back('\n');
}

}  // namespace

Status RunConvert(const ExecContext& context, const ConvertFlags& flags, StdoutWriter* out) {
  const auto start = std::chrono::steady_clock::now();
  if (flags.bad_rows != "fail" && flags.bad_rows != "skip" && !flags.bad_rows.starts_with("file:")) {
    return Status::InvalidArgument("--bad-rows must be fail, skip or file:PATH");
  }
  ASSIGN_OR_RETURN(const dataset::InputOptions input_options,
                   dataset::MakeInputOptions(InputSpecOf(flags.source, flags.record_type, flags.bad_rows != "fail")));
  ASSIGN_OR_RETURN(std::unique_ptr<Source> source, dataset::OpenInputs(flags.inputs, input_options));

  pipeline::ConvertOptions options = pipeline::ConvertOptions::Defaults();
  SchemaPtr schema = source->schema();
  if (const std::vector<std::string> columns = SelectedColumns(flags); !columns.empty()) {
    ASSIGN_OR_RETURN(ops::Projection projection, ops::Projection::Select(schema, columns));
    schema = projection.output_schema();
    options.projection.emplace(std::move(projection));
  }

  ASSIGN_OR_RETURN(dataset::SinkOptions sink_options, dataset::MakeSinkOptions(OutputSpecOf(flags)));
  ASSIGN_OR_RETURN(auto sink, dataset::DatasetSink::Open(std::move(sink_options), schema));

  // Bad rows go to a dead-letter file as from a pipeline's `read` step.
  pipeline::DeadLetters bad_rows;
  Status bad_rows_status;
  if (flags.bad_rows.starts_with("file:")) {
    const std::string path = flags.bad_rows.substr(5);
    RETURN_NOT_OK(bad_rows.Open(path));
    options.on_skipped = [&bad_rows, &bad_rows_status, path](const SkippedRecord& r) {
      if (bad_rows_status.ok()) bad_rows_status = bad_rows.WriteSkipped(path, "read", r);
    };
  }
  pipeline::ConvertProgress progress;
  options.progress = &progress;
  Result<pipeline::ConvertStats> stats = Status::Internal("not run");
  {
    ProgressBar bar(&progress, source->stored_bytes(), !flags.no_progress && isatty(STDERR_FILENO) == 1);
    stats = pipeline::RunConvert(context, source.get(), sink.get(), options);
  }
  RETURN_NOT_OK(bad_rows_status);
  RETURN_NOT_OK(bad_rows.Close());
  RETURN_NOT_OK(stats.status());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const pipeline::ConvertStats& s = *stats;
  std::string summary = fmt::format(
      "recflow: {} records into {} files", s.sink.records, s.sink.files);
  if (s.sink.partitions > 0) summary += fmt::format(" in {} partitions", s.sink.partitions);
  summary += fmt::format(" of {} ({:.1f} MB read, {:.1f} MB written) in {:.2f} s, {:.0f} records/s, {:.1f} MB/s, {} threads",
                         flags.output, static_cast<double>(s.input_bytes) / 1e6,
                         static_cast<double>(s.sink.written_bytes) / 1e6, seconds,
                         static_cast<double>(s.sink.records) / std::max(seconds, 1e-9),
                         static_cast<double>(s.input_bytes) / 1e6 / std::max(seconds, 1e-9), s.threads);
  if (s.skipped_records > 0) summary += fmt::format("; {} bad records skipped", s.skipped_records);
  if (s.sink.narrowed_doubles > 0) {
    summary += fmt::format("; {} float64 values lost precision as float32", s.sink.narrowed_doubles);
  }
  fmt::print(stderr, "{}\n", summary);
  if (flags.json) PrintSummaryJson(s, flags.output, seconds, out);
  return Status::OK();
}

}  // namespace recflow::cli
