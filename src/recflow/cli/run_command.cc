// `recflow run` / `recflow plan`: load the YAML with --set overrides, plan, run with a live display, report metrics.
#include "recflow/cli/run_command.h"

#include <fmt/core.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>

#include "recflow/cli/live_display.h"
#include "recflow/cli/pipeline_file.h"
#include "recflow/core/printable.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/yaml_pipeline.h"

namespace recflow::cli {

Status RunStepsCommand(StdoutWriter* out) {
  const pipeline::StepRegistry registry = CommandSteps();
  for (const std::string& name : registry.names()) {
    const pipeline::StepType* type = registry.Find(name);
    *out->buffer() += fmt::format("{:<18} {}{}\n", name, type->summary,
                                  type->shorthand.empty() ? "" : " [" + type->shorthand + "]");
  }
  return Status::OK();
}

Status RunPipelineCommand(const ExecContext& context, const RunFlags& flags, std::atomic<bool>* drain_first) {
  const auto start = std::chrono::steady_clock::now();
  pipeline::YamlLoadOptions load;
  load.file_system = context.file_system;
  if (flags.stop_after_idle >= 0) load.stop_after_idle = std::llround(flags.stop_after_idle * 1000);
  ASSIGN_OR_RETURN(pipeline::YamlPipeline loaded, LoadPipelineFile(flags.pipeline, flags.set, load));
  if (loaded.pipeline->drains() && drain_first != nullptr) drain_first->store(true);
  pipeline::RunOptions options = pipeline::RunOptions::Defaults();
  options.checkpoint_dir = flags.checkpoint;
  options.checkpoint_interval_ms = std::llround(flags.checkpoint_interval * 1000);
  pipeline::RunMetrics metrics;
  Result<pipeline::RunResult> result = Status::Internal("not run");
  {
    LiveDisplay live(std::chrono::milliseconds(500), [&metrics] { return metrics.LiveText(); },
                     !flags.quiet && isatty(STDERR_FILENO) == 1);
    result = pipeline::RunPipeline(context, *loaded.pipeline, options, &metrics);
  }
  if (!flags.metrics_file.empty() && metrics.num_steps() > 0) {
    std::ofstream out(flags.metrics_file, std::ios::binary | std::ios::trunc);
    out << metrics.Json() << "\n";
    if (!out) return Status::IOError("cannot write " + flags.metrics_file);
  }
  RETURN_NOT_OK(result.status());
  if (!flags.quiet) fmt::print(stderr, "{}", metrics.Table());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto& [name, stats] : result->writes) {
    fmt::print(stderr, "{}: {} records in {} files ({:.1f} MB)\n", name, stats.records, stats.files,
               static_cast<double>(stats.written_bytes) / 1e6);
  }
  fmt::print(stderr, "pipeline {}: {} stage{} in {:.2f} s\n", loaded.name.empty() ? flags.pipeline : loaded.name,
             result->stages, result->stages == 1 ? "" : "s", seconds);
  return Status::OK();
}

Status RunPlanCommand(const RunFlags& flags, StdoutWriter* out) {
  // An input an earlier job makes may not exist yet: plan what can be planned and say what waits.
  ASSIGN_OR_RETURN(pipeline::YamlPipeline loaded,
                   LoadPipelineFile(flags.pipeline, flags.set, {.defer_missing_inputs = true}));
  ASSIGN_OR_RETURN(pipeline::Plan plan, pipeline::MakePlan(*loaded.pipeline));
  for (const std::string& line : pipeline::DeferredSummary(*loaded.pipeline)) {
    fmt::print(stderr, "recflow: warning: {}\n", PrintableText(line));
  }
  *out->buffer() += flags.dot ? pipeline::PlanToDot(*loaded.pipeline, plan) : pipeline::PlanToText(*loaded.pipeline, plan);
  return Status::OK();
}

}  // namespace recflow::cli
