// LoadPipelineYaml: parse with yaml-cpp (its exceptions stop here), resolve parameters, then build step by step.
#include "recflow/pipeline/yaml_pipeline.h"

#include <filesystem>
#include <set>

#include "recflow/core/io.h"
#include "recflow/pipeline/yaml_value_internal.h"

namespace recflow::pipeline {

namespace {

const std::set<std::string> kStepKeys = {"name", "input", "side_inputs", "on_error", "dead_letter", "event_time"};

Status At(const std::string& file, const YAML::Node& node, const std::string& message) {
  return Status::InvalidArgument(LocationOf(file, node).ToString() + ": " + message);
}

/// `st` of a step located at `node`. When a read failed (`reads`), its input is missing,
/// unreadable or damaged: the code stays (a runtime error, exit 1). Anything else a step
/// refuses is about the pipeline's text (a wrong column, type or argument): a usage error (exit 2).
Status At(const std::string& file, const YAML::Node& node, const Status& st, bool reads) {
  return Status(reads ? st.code() : StatusCode::kInvalidArgument, LocationOf(file, node).ToString() + ": " + st.message());
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Builds the steps of `doc` into `out`.
class Builder {
 public:
  Builder(const std::string& file, const std::string& base_dir, const StepRegistry& registry,
          const YamlLoadOptions& options, YamlPipeline* out)
      : file_(file), base_dir_(base_dir), registry_(registry), options_(options), out_(out) {}

  Status Params(const YAML::Node& doc, const std::vector<std::pair<std::string, std::string>>& overrides) {
    const YAML::Node params = doc["params"];
    if (params) {
      if (!params.IsMap()) return At(file_, params, "params must be a mapping of names to default values");
      for (const auto& item : params) {
        if (!item.second.IsScalar() && !item.second.IsNull()) return At(file_, item.second, "a parameter's value must be a single value");
        out_->params[item.first.Scalar()] = item.second.IsNull() ? "" : item.second.Scalar();
      }
    }
    for (const auto& [key, value] : overrides) {
      if (out_->params.count(key) == 0) {
        std::vector<std::string> names;
        for (const auto& [k, v] : out_->params) names.push_back(k);
        return Status::InvalidArgument("--set " + key + ": the pipeline has no parameter '" + key +
                                       "' (parameters: " + (names.empty() ? "none" : Join(names)) + ")");
      }
      out_->params[key] = value;
    }
    return Status::OK();
  }

  Status Steps(const YAML::Node& steps) {
    if (!steps || !steps.IsSequence() || steps.size() == 0) {
      return At(file_, steps ? steps : YAML::Node(), "steps must be a non-empty list");
    }
    for (const YAML::Node& step : steps) RETURN_NOT_OK(Step(step));
    return Status::OK();
  }

 private:
  static bool HasDeferredInput(const StepContext& ctx) {
    for (const PCollection& input : ctx.inputs) {
      if (input.deferred()) return true;
    }
    for (const auto& [name, side] : ctx.options.side_inputs) {
      if (side.deferred()) return true;
    }
    return false;
  }

  /// A step on a deferred input keeps its place in the graph with the node kinds it would
  /// build (a fitted step: its fit, then the step reading the fit as a side input); its
  /// arguments, columns and types are checked when the input exists.
  Status AddDeferredStep(StepContext& ctx, const StepType& type, const YAML::Node& op_key) {
    Pipeline* p = ctx.pipeline;
    std::vector<std::pair<std::string, PCollection>> sides = ctx.options.side_inputs;
    if (type.fitted) {
      sides.emplace_back("fit", p->AddDeferred(ctx.name + ".fit", NodeKind::kCombineGlobally, ctx.inputs, {}, ""));
    }
    PCollection out = p->AddDeferred(ctx.name, type.kind, ctx.inputs, sides, type.name);
    if (!p->status().ok()) return At(file_, op_key, p->status(), /*reads=*/false);
    if (type.kind != NodeKind::kWrite) {
      outputs_[ctx.name] = out;
      previous_ = out;
    }
    return Status::OK();
  }

  Result<std::string> Text(const YAML::Node& node) const {
    if (!node.IsScalar()) return At(file_, node, "expected a single value");
    auto text = SubstituteParams(node.Scalar(), out_->params);
    if (!text.ok()) return At(file_, node, text.status().message());
    return text;
  }

  Result<PCollection> Lookup(const YAML::Node& node) const {
    ASSIGN_OR_RETURN(std::string name, Text(node));
    auto it = outputs_.find(name);
    if (it != outputs_.end()) return it->second;
    std::vector<std::string> names;
    for (const auto& [k, v] : outputs_) names.push_back(k);
    return At(file_, node, "no earlier step '" + name + "' with an output (steps: " + Join(names) + ")");
  }

  Status Step(const YAML::Node& step) {
    if (!step.IsMap()) return At(file_, step, "a step must be a mapping like {resize: {height: 32, width: 32}}");
    // The op key: the one key that is not a common step key.
    std::string op;
    YAML::Node op_node, op_key;
    for (const auto& item : step) {
      const std::string key = item.first.Scalar();
      if (kStepKeys.count(key) != 0) continue;
      if (!op.empty()) return At(file_, item.first, "a step has one op, but it names '" + op + "' and '" + key + "'");
      op = key;
      op_node = item.second;
      op_key = item.first;
    }
    if (op.empty()) return At(file_, step, "the step names no op (ops: " + Join(registry_.names()) + ")");
    const StepType* type = registry_.Find(op);
    if (type == nullptr) return At(file_, op_key, "unknown op '" + op + "' (ops: " + Join(registry_.names()) + ")");

    StepContext ctx;
    ctx.pipeline = out_->pipeline.get();
    ctx.base_dir = base_dir_;
    ctx.defer_missing_inputs = options_.defer_missing_inputs;
    ctx.stop_after_idle = options_.stop_after_idle;
    if (step["name"]) {
      ASSIGN_OR_RETURN(ctx.name, Text(step["name"]));
    } else {
      ctx.name = op;
      for (int n = 2; names_.count(ctx.name) != 0; ++n) ctx.name = op + "_" + std::to_string(n);
    }
    if (!names_.insert(ctx.name).second) return At(file_, step["name"], "another step is already named '" + ctx.name + "'");
    if (const auto settled = options_.read_schemas.find(ctx.name); settled != options_.read_schemas.end()) {
      ctx.read_schema = settled->second;
    }
    // Main inputs: `input`, else the previous step.
    if (const YAML::Node input = step["input"]) {
      if (input.IsSequence()) {
        for (const YAML::Node& one : input) {
          ASSIGN_OR_RETURN(PCollection p, Lookup(one));
          ctx.inputs.push_back(p);
        }
      } else {
        ASSIGN_OR_RETURN(PCollection p, Lookup(input));
        ctx.inputs.push_back(p);
      }
    } else if (type->min_inputs > 0) {
      if (!previous_) return At(file_, op_key, "'" + op + "' needs an input, and no earlier step has an output");
      ctx.inputs.push_back(*previous_);
    }
    const int n = static_cast<int>(ctx.inputs.size());
    if (n < type->min_inputs || (type->max_inputs >= 0 && n > type->max_inputs)) {
      return At(file_, op_key, "'" + op + "' takes " +
                                   (type->max_inputs < 0 ? "at least " + std::to_string(type->min_inputs)
                                                         : std::to_string(type->max_inputs)) +
                                   " input(s), got " + std::to_string(n));
    }
    if (const YAML::Node sides = step["side_inputs"]) {
      if (!sides.IsMap()) return At(file_, sides, "side_inputs must map names to steps");
      for (const auto& item : sides) {
        ASSIGN_OR_RETURN(PCollection p, Lookup(item.second));
        ctx.options.side_inputs.emplace_back(item.first.Scalar(), p);
      }
    }
    if (const YAML::Node policy = step["on_error"]) {
      ASSIGN_OR_RETURN(std::string mode, Text(policy));
      if (mode == "fail") {
        ctx.options.on_error.mode = ErrorPolicy::Mode::kFail;
      } else if (mode == "skip") {
        ctx.options.on_error.mode = ErrorPolicy::Mode::kSkip;
      } else if (mode == "dead_letter") {
        ctx.options.on_error.mode = ErrorPolicy::Mode::kDeadLetter;
      } else {
        return At(file_, policy, "on_error must be fail, skip or dead_letter, not '" + mode + "'");
      }
    }
    if (const YAML::Node letters = step["dead_letter"]) {
      ASSIGN_OR_RETURN(std::string path, Text(letters));
      auto resolved = ctx.Path(path);
      if (!resolved.ok()) return At(file_, letters, resolved.status().message());
      ctx.options.on_error.dead_letter = *resolved;
      if (!step["on_error"]) ctx.options.on_error.mode = ErrorPolicy::Mode::kDeadLetter;
    }
    if (ctx.options.on_error.mode == ErrorPolicy::Mode::kDeadLetter && ctx.options.on_error.dead_letter.empty()) {
      return At(file_, step, "on_error: dead_letter needs dead_letter: PATH");
    }
    if (const YAML::Node event_time = step["event_time"]) {
      if (!type->takes_event_time) return At(file_, event_time, "event_time belongs to a window step, not '" + op + "'");
      const YAML::Node column = event_time.IsMap() ? event_time["column"] : event_time;
      if (!column) return At(file_, event_time, "event_time: {column: NAME, unit: ms|us} needs its column");
      ASSIGN_OR_RETURN(ctx.event_time, Text(column));
      if (event_time.IsMap() && event_time["unit"]) {
        ASSIGN_OR_RETURN(std::string unit, Text(event_time["unit"]));
        if (unit != "ms" && unit != "us") return At(file_, event_time["unit"], "unit must be ms or us, not '" + unit + "'");
        ctx.event_time_micros = unit == "us";
      }
    }
    StepArgs args(ctx.name, std::make_shared<YamlValue>(YamlValue{op_node}), LocationOf(file_, op_node), type->shorthand,
                  &out_->params);
    ctx.args = &args;
    if (HasDeferredInput(ctx)) return AddDeferredStep(ctx, *type, op_key);
    Result<std::optional<PCollection>> built = type->build(ctx);
    if (!built.ok()) {
      const std::string message = built.status().message();
      // StepArgs errors carry their position already.
      if (message.rfind(file_ + ":", 0) == 0) return built.status();
      return At(file_, op_key, "step '" + ctx.name + "': " + message);
    }
    RETURN_NOT_OK(args.CheckAllUsed());
    const Status& st = out_->pipeline->status();
    if (!st.ok()) return At(file_, op_key, st, type->kind == NodeKind::kRead);
    if (built->has_value()) {
      outputs_[ctx.name] = **built;
      previous_ = **built;
    }
    return Status::OK();
  }

  const std::string& file_;
  const std::string& base_dir_;
  const StepRegistry& registry_;
  const YamlLoadOptions& options_;
  YamlPipeline* out_;
  std::map<std::string, PCollection> outputs_;
  std::set<std::string> names_;
  std::optional<PCollection> previous_;
};

}  // namespace

Result<YamlPipeline> ParsePipelineYaml(const std::string& text, const std::string& file, const std::string& base_dir,
                                       const std::vector<std::pair<std::string, std::string>>& overrides,
                                       const StepRegistry& registry, const YamlLoadOptions& options) {
  YamlPipeline out;
  out.pipeline = std::make_unique<Pipeline>();
  out.pipeline->set_file_system(options.file_system);
  try {
    const YAML::Node doc = YAML::Load(text);
    if (!doc.IsMap()) return At(file, doc, "a pipeline is a mapping with 'steps' (and optional name, description, params)");
    for (const auto& item : doc) {
      const std::string key = item.first.Scalar();
      if (key != "name" && key != "description" && key != "params" && key != "steps") {
        return At(file, item.first, "unknown key '" + key + "' (allowed: name, description, params, steps)");
      }
    }
    if (doc["name"]) out.name = doc["name"].Scalar();
    Builder builder(file, base_dir, registry, options, &out);
    RETURN_NOT_OK(builder.Params(doc, overrides));
    RETURN_NOT_OK(builder.Steps(doc["steps"]));
  } catch (const YAML::ParserException& e) {
    return Status::InvalidArgument(file + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                                   ": " + e.msg);
  } catch (const YAML::Exception& e) {
    return Status::InvalidArgument(file + ": " + e.what());
  }
  return out;
}

Result<YamlPipeline> LoadPipelineYaml(const std::string& path,
                                      const std::vector<std::pair<std::string, std::string>>& overrides,
                                      const StepRegistry& registry, const YamlLoadOptions& options) {
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> text, ReadWholeFile(path));
  const std::string base_dir = std::filesystem::absolute(path).parent_path().string();
  return ParsePipelineYaml(std::string(text->view()), path, base_dir, overrides, registry, options);
}

}  // namespace recflow::pipeline
