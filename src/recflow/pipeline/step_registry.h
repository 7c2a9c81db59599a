// StepRegistry: pipeline steps by the name YAML uses for them — the built-in ops and the DoFns users register.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "recflow/pipeline/pipeline.h"
#include "recflow/pipeline/step_args.h"

namespace recflow::pipeline {

/// What a step's builder gets.
struct StepContext {
  Pipeline* pipeline = nullptr;
  std::string name;                  ///< the step's name
  std::vector<PCollection> inputs;   ///< its main inputs
  StepOptions options;               ///< on_error and side inputs from the YAML
  StepArgs* args = nullptr;          ///< the op's arguments
  std::string base_dir;              ///< the YAML file's directory
  /// Build a read whose input does not exist yet as a deferred node (YamlLoadOptions, `plan`).
  bool defer_missing_inputs = false;
  /// The `stop_after_idle` of an unbounded read that states none (YamlLoadOptions); negative: none.
  int64_t stop_after_idle = -1;
  /// A read's schema settled before (YamlLoadOptions::read_schemas); null: the read opens its inputs for it.
  SchemaPtr read_schema;

  /// `path` (or a file:// URI, see LocalPath) resolved against base_dir when relative;
  /// InvalidArgument for a URI scheme recflow does not handle.
  Result<std::string> Path(const std::string& path) const;
  /// Path(value) of argument `key`, an error located at that argument when it fails.
  Result<std::string> ArgPath(std::string_view key, const std::string& value) const;
  /// The step's `event_time:` column (a window step; empty when not given) and whether its
  /// integers are microseconds (`event_time: {column: C, unit: us}`).
  std::string event_time;
  bool event_time_micros = false;
  /// The only main input (the builder's step takes exactly one).
  const PCollection& input() const { return inputs.front(); }
};

/// Adds the step to ctx.pipeline; returns its output, or nullopt for a step without one
/// (write). Build errors go to the pipeline (Pipeline::status) or are returned.
using StepBuilder = std::function<Result<std::optional<PCollection>>(StepContext& ctx)>;

/// One kind of step.
struct StepType {
  std::string name;        ///< the YAML key ("resize")
  std::string summary;     ///< one line for `recflow steps`
  std::string shorthand;   ///< the argument a scalar or list value stands for ("columns"), if any
  int min_inputs = 1;      ///< 0 for reads
  int max_inputs = 1;      ///< -1 for any number (flatten)
  StepBuilder build;
  /// The node the step adds (what a plan shows for it while its input is deferred).
  NodeKind kind = NodeKind::kParDo;
  /// True for a step fitted over its input in a first pass (a CombineGlobally read as a side input).
  bool fitted = false;
  /// True for a step that takes the step-level `event_time:` key (window).
  bool takes_event_time = false;
};

/// Step kinds by name.
class StepRegistry {
 public:
  /// Adds `type`; InvalidArgument when the name is taken.
  Status Add(StepType type);
  /// Adds `type`, replacing a step of the same name (e.g. a built-in).
  void Replace(StepType type);
  /// The step named `name`, or nullptr.
  const StepType* Find(std::string_view name) const;
  /// Every name, sorted.
  std::vector<std::string> names() const;

 private:
  std::map<std::string, StepType, std::less<>> types_;
};

/// A registry with every built-in step (read, write, grouping, column, image and tf.Example
/// ops); users add their own DoFns to a copy.
StepRegistry BuiltinSteps();

}  // namespace recflow::pipeline
