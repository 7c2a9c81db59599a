// `recflow convert`: flags → a Read → (select) → Write pipeline over the opened input, run by RunPipeline; summary.
#include "recflow/cli/convert_command.h"

#include <fmt/core.h>
#include <unistd.h>

#include <chrono>

#include "recflow/cli/progress.h"
#include "recflow/cli/source_flags.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/formats/jsonl/json_writer.h"
#include "recflow/ops/columns/select.h"
#include "recflow/pipeline/column_steps.h"
#include "recflow/pipeline/local_runner.h"

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

// What a finished convert did: its write's stats and its one stage's counters.
struct ConvertStats {
  int64_t skipped_records = 0;  // records the source left out
  int64_t input_bytes = 0;      // input bytes consumed
  int threads = 0;              // worker threads used
  dataset::SinkStats sink;      // what was written
};

void PrintSummaryJson(const ConvertStats& s, const std::string& output, double seconds, StdoutWriter* out) {
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

/// The inputs, or the splits --split / --splits-from name (not both).
Result<std::unique_ptr<Source>> OpenConvertInputs(const ConvertFlags& flags, const dataset::InputOptions& options) {
  if (flags.splits.given() == !flags.inputs.empty()) {
    return Status::InvalidArgument("give INPUT paths or --split / --splits-from (one of them)");
  }
  if (flags.inputs.empty()) {
    ASSIGN_OR_RETURN(const std::vector<dataset::Split> splits, ReadSplitFlags(flags.splits));
    return OpenSplitInputs(splits, options);
  }
  return dataset::OpenInputs(flags.inputs, options);
}

}  // namespace

Status RunConvert(const ExecContext& context, const ConvertFlags& flags, StdoutWriter* out) {
  const auto start = std::chrono::steady_clock::now();
  if (flags.bad_rows != "fail" && flags.bad_rows != "skip" && !flags.bad_rows.starts_with("file:")) {
    return Status::InvalidArgument("--bad-rows must be fail, skip or file:PATH");
  }
  ASSIGN_OR_RETURN(const dataset::InputOptions input_options,
                   dataset::MakeInputOptions(InputSpecOf(flags.source, flags.record_type, flags.bad_rows != "fail"),
                                             context.file_system));
  ASSIGN_OR_RETURN(std::unique_ptr<Source> source, OpenConvertInputs(flags, input_options));

  const int64_t stored_bytes = source->stored_bytes();

  // convert is the pipeline read → (select) → write. Its steps are not the user's, so its errors
  // do not name them; the input was opened above (once: standard input and pipes are read once).
  pipeline::Pipeline job;
  job.set_steps_named_in_errors(false);
  job.set_file_system(context.file_system);
  pipeline::ErrorPolicy bad_rows;
  if (flags.bad_rows == "skip") bad_rows.mode = pipeline::ErrorPolicy::Mode::kSkip;
  if (flags.bad_rows.starts_with("file:")) bad_rows = {pipeline::ErrorPolicy::Mode::kDeadLetter, flags.bad_rows.substr(5)};
  pipeline::PCollection rows = job.ReadOpened("read", std::move(source), nullptr, "", std::move(bad_rows));
  if (const std::vector<std::string> columns = SelectedColumns(flags); !columns.empty()) {
    ASSIGN_OR_RETURN(ops::Projection projection, ops::Projection::Select(rows.schema(), columns));
    rows = job.ParDo("select", rows, pipeline::MakeProjectionDoFn(std::move(projection)));
  }
  ASSIGN_OR_RETURN(dataset::SinkOptions sink_options, dataset::MakeSinkOptions(OutputSpecOf(flags)));
  job.Write("write", rows, std::move(sink_options));
  RETURN_NOT_OK(job.status());

  pipeline::RunMetrics metrics;
  metrics.Reset(job, 1);  // its plan is one stage, whose progress the bar reads throughout the run
  Result<pipeline::RunResult> result = Status::Internal("not run");
  {
    ProgressBar bar(&metrics.stage(0).progress, stored_bytes, !flags.no_progress && isatty(STDERR_FILENO) == 1);
    result = pipeline::RunPipeline(context, job, pipeline::RunOptions::Defaults(), &metrics);
  }
  RETURN_NOT_OK(result.status());
  ConvertStats s;
  s.skipped_records = metrics.stage(0).progress.skipped.load();
  s.input_bytes = metrics.stage(0).progress.input_bytes.load();
  s.threads = context.ResolvedThreads();
  s.sink = result->writes.at(0).second;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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
