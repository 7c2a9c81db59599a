// LoadPipelineYaml: a pipeline written in YAML (parameters, steps, inputs, side inputs, error policies), checked
// whole — every step's keys and every column and type — before anything runs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "recflow/pipeline/pipeline.h"
#include "recflow/pipeline/step_registry.h"

namespace recflow::pipeline {

/// A pipeline built from YAML.
struct YamlPipeline {
  std::string name;
  std::map<std::string, std::string> params;  ///< after --set overrides
  std::unique_ptr<Pipeline> pipeline;
};

/// How a pipeline file is built.
struct YamlLoadOptions {
  /// Build a read whose input does not exist yet, and the steps after it, as deferred nodes
  /// (Pipeline::set_defer_missing_inputs) instead of failing: what `recflow plan` does, so a
  /// pipeline can be drawn before the job that makes its input has run. Such a pipeline cannot run.
  bool defer_missing_inputs = false;
  /// The file system the pipeline's reads find their inputs and schemas on while it is built
  /// (Pipeline::set_file_system): the one the ExecContext of its runs will have.
  std::shared_ptr<FileSystem> file_system = LocalFileSystem::Instance();
  /// The `stop_after_idle` (milliseconds) of every unbounded read that does not state its own
  /// (`recflow run --stop-after-idle`); negative: none.
  int64_t stop_after_idle = -1;
  /// The schema of reads of files (by step name) settled before, by an earlier build of the same
  /// pipeline (a distributed run's driver, for its tasks): such a read opens nothing while the
  /// pipeline is built (no sampling to infer a schema); a pass reading it fails when its files no
  /// longer read with that schema (Pipeline::ReadFiles).
  std::map<std::string, SchemaPtr> read_schemas;
};

/// Builds the pipeline in `text` (named `file` in messages; relative paths resolve against
/// `base_dir`). The document is a mapping with `steps` (a list) and optional `name`,
/// `description` and `params` (defaults of `${name}` parameters, overridden by `overrides`,
/// which must name declared parameters). Each step is a mapping of one op key (a step of
/// `registry`) to its arguments, plus optional `name`, `input` (a step name or a list; the
/// previous step by default), `side_inputs` ({name: step}), `on_error` (fail, skip,
/// dead_letter) and `dead_letter` (a JSON Lines path). Errors name the line and column.
Result<YamlPipeline> ParsePipelineYaml(const std::string& text, const std::string& file, const std::string& base_dir,
                                       const std::vector<std::pair<std::string, std::string>>& overrides,
                                       const StepRegistry& registry, const YamlLoadOptions& options = {});

/// ParsePipelineYaml of the file at `path` (relative paths resolve against its directory).
Result<YamlPipeline> LoadPipelineYaml(const std::string& path,
                                      const std::vector<std::pair<std::string, std::string>>& overrides,
                                      const StepRegistry& registry, const YamlLoadOptions& options = {});

}  // namespace recflow::pipeline
