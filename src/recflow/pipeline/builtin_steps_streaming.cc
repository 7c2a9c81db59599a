// Built-in steps window (windows, trigger, accumulation, lateness, timestamps of a PCollection), test_stream
// (Beam's TestStream: a replayable file of element bundles and watermark and processing-time advances) and watch
// (the files appearing in a directory).
#include "recflow/columnar/value_parsing.h"
#include "recflow/pipeline/builtin_steps_internal.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/pipeline/test_stream_source.h"
#include "recflow/pipeline/watch_source.h"
#include "recflow/pipeline/window_columns.h"
#include "recflow/pipeline/yaml_value_internal.h"

namespace recflow::pipeline {

namespace {

using window::Trigger;

// Reads the YAML of one window argument (`key` names it in errors); yaml-cpp's exceptions are caught by the caller.
class WindowArgs {
 public:
  explicit WindowArgs(StepArgs& args) : a_(args) {}

  // A duration scalar: "10s", "500ms", or milliseconds.
  Result<window::Millis> Duration(std::string_view key, const YAML::Node& node) {
    return a_.ScalarDuration(key, YamlValue{node});
  }
  Result<window::Millis> PositiveDuration(std::string_view key, const YAML::Node& node) {
    ASSIGN_OR_RETURN(window::Millis millis, Duration(key, node));
    if (millis <= 0) return a_.Error(key, "must be longer than 0 ms");
    return millis;
  }

  // One of fixed, sliding, sessions, global.
  Result<window::WindowFn> WindowFn() {
    std::vector<std::string> given;
    for (const char* kind : {"fixed", "sliding", "sessions", "global"}) {
      if (a_.Find(kind) != nullptr) given.push_back(kind);
    }
    if (given.size() != 1) {
      return a_.Error("fixed", "a window step names one of fixed, sliding, sessions or global (it names " +
                                   std::to_string(given.size()) + ")");
    }
    const std::string& kind = given[0];
    const YAML::Node node = a_.Find(kind)->node;
    auto member = [&](const char* name) -> Result<YAML::Node> {
      if (!node.IsMap() || !node[name]) return a_.Error(kind, std::string("needs ") + name);
      return YAML::Node(node[name]);
    };
    if (kind == "global") return window::WindowFn::Global();
    if (kind == "fixed") {
      if (!node.IsMap()) {
        ASSIGN_OR_RETURN(window::Millis size, PositiveDuration(kind, node));
        return window::WindowFn::Fixed(size);
      }
      ASSIGN_OR_RETURN(YAML::Node size_node, member("size"));
      ASSIGN_OR_RETURN(window::Millis size, PositiveDuration(kind, size_node));
      window::Millis offset = 0;
      if (node["offset"]) {
        ASSIGN_OR_RETURN(offset, Duration(kind, node["offset"]));
      }
      if (offset >= size) return a_.Error(kind, "offset must be shorter than size");
      return window::WindowFn::Fixed(size, offset);
    }
    if (kind == "sliding") {
      ASSIGN_OR_RETURN(YAML::Node size_node, member("size"));
      ASSIGN_OR_RETURN(YAML::Node period_node, member("period"));
      ASSIGN_OR_RETURN(window::Millis size, PositiveDuration(kind, size_node));
      ASSIGN_OR_RETURN(window::Millis period, PositiveDuration(kind, period_node));
      window::Millis offset = 0;
      if (node["offset"]) {
        ASSIGN_OR_RETURN(offset, Duration(kind, node["offset"]));
      }
      if (offset >= period) return a_.Error(kind, "offset must be shorter than period");
      return window::WindowFn::Sliding(size, period, offset);
    }
    ASSIGN_OR_RETURN(YAML::Node gap_node, member("gap"));
    ASSIGN_OR_RETURN(window::Millis gap, PositiveDuration(kind, gap_node));
    return window::WindowFn::Sessions(gap);
  }

  // A trigger: `default`, `never`, or a one-key mapping (after_watermark, after_count, ...), nested to `depth`.
  Result<Trigger> ParseTrigger(const YAML::Node& node, int depth = 0) {
    if (depth > 16) return a_.Error("trigger", "nests deeper than 16 levels");
    if (node.IsScalar()) {
      ASSIGN_OR_RETURN(std::string word, a_.Scalar("trigger", YamlValue{node}));
      if (word == "default") return Trigger::Default();
      if (word == "never") return Trigger::Never();
      if (word == "after_watermark") return Trigger::AfterWatermark();
      return a_.Error("trigger", "'" + word + "' is not a trigger (default, never, or a mapping like {after_count: 2})");
    }
    if (!node.IsMap() || node.size() != 1) {
      return a_.Error("trigger", "a trigger is default, never, or a mapping of one trigger name to its argument");
    }
    const std::string name = node.begin()->first.Scalar();
    const YAML::Node arg = node.begin()->second;
    auto list = [&]() -> Result<std::vector<Trigger>> {
      if (!arg.IsSequence() || arg.size() == 0) return a_.Error("trigger", name + " takes a list of triggers");
      std::vector<Trigger> triggers;
      for (const YAML::Node& t : arg) {
        ASSIGN_OR_RETURN(Trigger sub, ParseTrigger(t, depth + 1));
        triggers.push_back(std::move(sub));
      }
      return triggers;
    };
    if (name == "after_count") {
      ASSIGN_OR_RETURN(std::string text, a_.Scalar("trigger", YamlValue{arg}));
      int64_t n = 0;
      if (!ParseInteger(text, &n) || n < 1) return a_.Error("trigger", "after_count takes a count of at least 1");
      return Trigger::AfterCount(n);
    }
    if (name == "after_processing_time") {
      ASSIGN_OR_RETURN(window::Millis delay, Duration("trigger", arg));
      return Trigger::AfterProcessingTime(delay);
    }
    if (name == "after_watermark") {
      if (!arg.IsNull() && !arg.IsMap()) return a_.Error("trigger", "after_watermark takes {early: T, late: T} (both optional)");
      std::optional<Trigger> early, late;
      if (arg.IsMap()) {
        for (const auto& item : arg) {
          const std::string phase = item.first.Scalar();
          if (phase != "early" && phase != "late") return a_.Error("trigger", "after_watermark takes early and late, not '" + phase + "'");
          ASSIGN_OR_RETURN(Trigger sub, ParseTrigger(item.second, depth + 1));
          (phase == "early" ? early : late) = std::move(sub);
        }
      }
      return Trigger::AfterWatermark(early ? &*early : nullptr, late ? &*late : nullptr);
    }
    if (name == "repeatedly") {
      ASSIGN_OR_RETURN(Trigger sub, ParseTrigger(arg, depth + 1));
      return Trigger::Repeatedly(std::move(sub));
    }
    if (name == "after_any" || name == "after_all" || name == "after_each") {
      ASSIGN_OR_RETURN(std::vector<Trigger> subs, list());
      if (name == "after_any") return Trigger::AfterAny(std::move(subs));
      if (name == "after_all") return Trigger::AfterAll(std::move(subs));
      return Trigger::AfterEach(std::move(subs));
    }
    if (name == "or_finally") {
      if (!arg.IsMap() || !arg["main"] || !arg["until"] || arg.size() != 2) {
        return a_.Error("trigger", "or_finally takes {main: T, until: T}");
      }
      ASSIGN_OR_RETURN(Trigger main, ParseTrigger(arg["main"], depth + 1));
      ASSIGN_OR_RETURN(Trigger until, ParseTrigger(arg["until"], depth + 1));
      return Trigger::OrFinally(std::move(main), std::move(until));
    }
    return a_.Error("trigger", "'" + name + "' is not a trigger (after_watermark, after_count, after_processing_time, "
                                            "repeatedly, after_any, after_all, after_each, or_finally, default, never)");
  }

 private:
  StepArgs& a_;
};

Result<window::WindowingStrategy> ParseStrategy(StepArgs& a) {
  WindowArgs args(a);
  window::WindowingStrategy strategy;
  ASSIGN_OR_RETURN(strategy.window_fn, args.WindowFn());
  if (const YamlValue* trigger = a.Find("trigger")) {
    ASSIGN_OR_RETURN(strategy.trigger, args.ParseTrigger(trigger->node));
  }
  ASSIGN_OR_RETURN(std::string accumulation, a.String("accumulation", "discarding"));
  if (accumulation != "discarding" && accumulation != "accumulating") {
    return a.Error("accumulation", "must be discarding or accumulating, not '" + accumulation + "'");
  }
  strategy.accumulation =
      accumulation == "accumulating" ? window::Accumulation::kAccumulating : window::Accumulation::kDiscarding;
  if (const YamlValue* lateness = a.Find("allowed_lateness")) {
    ASSIGN_OR_RETURN(strategy.allowed_lateness, args.Duration("allowed_lateness", lateness->node));
  }
  ASSIGN_OR_RETURN(std::string combiner, a.String("timestamp_combiner", "end_of_window"));
  if (combiner == "end_of_window") {
    strategy.timestamp_combiner = window::TimestampCombiner::kEndOfWindow;
  } else if (combiner == "earliest") {
    strategy.timestamp_combiner = window::TimestampCombiner::kEarliest;
  } else if (combiner == "latest") {
    strategy.timestamp_combiner = window::TimestampCombiner::kLatest;
  } else {
    return a.Error("timestamp_combiner", "must be end_of_window, earliest or latest, not '" + combiner + "'");
  }
  return strategy;
}

Result<std::optional<PCollection>> BuildWindow(StepContext& ctx) {
  Windowing windowing;
  try {
    ASSIGN_OR_RETURN(windowing.strategy, ParseStrategy(*ctx.args));
  } catch (const YAML::Exception& e) {
    return ctx.args->Error("trigger", e.what());
  }
  windowing.event_time = ctx.event_time;
  windowing.event_time_micros = ctx.event_time_micros;
  if (windowing.event_time.empty()) {
    const SchemaPtr schema = ctx.input().schema();
    const int marked = schema == nullptr ? -1 : MarkedEventTimeColumn(*schema);
    if (marked < 0) {
      return Status::InvalidArgument("step '" + ctx.name + "': event_time: missing (its input has no event-time column of its own; "
                                     "name the column: event_time: ts)");
    }
    windowing.event_time = schema->field(marked)->name();
  }
  return ctx.pipeline->Window(ctx.name, ctx.input(), std::move(windowing));
}

Result<std::optional<PCollection>> BuildTestStream(StepContext& ctx) {
  ASSIGN_OR_RETURN(std::string path, ctx.args->String("path"));
  ASSIGN_OR_RETURN(path, ctx.ArgPath("path", path));
  SourceFactory open = [path](const std::shared_ptr<FileSystem>& fs) { return OpenTestStream(*fs, path); };
  return ctx.pipeline->Read(ctx.name, open, "test stream " + path);
}

Result<std::optional<PCollection>> BuildWatch(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  WatchOptions options;
  ASSIGN_OR_RETURN(options.dir, a.String("path"));
  ASSIGN_OR_RETURN(options.dir, ctx.ArgPath("path", options.dir));
  dataset::InputSpec spec;
  ASSIGN_OR_RETURN(spec.from, a.String("format", "auto"));
  ASSIGN_OR_RETURN(std::string schema_file, a.String("schema", ""));
  if (!schema_file.empty()) {
    ASSIGN_OR_RETURN(schema_file, ctx.ArgPath("schema", schema_file));
  }
  spec.schema_file = schema_file;
  auto input = dataset::MakeInputOptions(spec, ctx.pipeline->file_system());
  if (!input.ok()) return a.Error("format", input.status().message());
  options.input = *input;
  ASSIGN_OR_RETURN(options.event_time, a.String("event_time"));
  ASSIGN_OR_RETURN(options.watermark.out_of_orderness, a.Duration("out_of_orderness", 0));
  ASSIGN_OR_RETURN(options.watermark.idle_after, a.Duration("idle_after", -1));
  ASSIGN_OR_RETURN(options.poll_ms, a.Duration("poll", options.poll_ms));
  ASSIGN_OR_RETURN(options.stop_after_idle, a.Duration("stop_after_idle", ctx.stop_after_idle));
  if (Status st = options.watermark.Validate(); !st.ok()) return a.Error("idle_after", st.message());
  if (options.poll_ms <= 0) return a.Error("poll", "must be > 0");
  auto schema = WatchSchema(ctx.pipeline->file_system(), options, schema_file);
  if (!schema.ok()) return a.Error("path", schema.status().message());
  SourceFactory open = [options, schema = *schema](const std::shared_ptr<FileSystem>& fs) {
    return OpenWatch(fs, options, schema);
  };
  ctx.pipeline->set_unbounded();
  // Each file is read once: a second pass over the watch cannot be made.
  return ctx.pipeline->Read(ctx.name, open, "watch " + options.dir, ctx.options.on_error, /*reopenable=*/false);
}

}  // namespace

void AddStreamingSteps(StepRegistry* registry) {
  StepType window{"window", "windows, trigger, accumulation, allowed lateness and timestamps of the rows' groupings", "",
                  1, 1, BuildWindow, NodeKind::kParDo};
  window.takes_event_time = true;
  (void)registry->Add(std::move(window));
  (void)registry->Add(StepType{"test_stream", "a replayable stream: element bundles, watermark and processing-time advances",
                               "path", 0, 0, BuildTestStream, NodeKind::kRead});
  (void)registry->Add(StepType{"watch", "an unbounded input: the files appearing in a directory, each read once",
                               "path", 0, 0, BuildWatch, NodeKind::kRead});
}

}  // namespace recflow::pipeline
