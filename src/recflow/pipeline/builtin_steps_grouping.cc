// Built-in steps flatten, group_by_key, combine_per_key and combine_globally.
#include "recflow/pipeline/builtin_steps_internal.h"

namespace recflow::pipeline {

namespace {

// Aggregates written as {output: "sum(column)"}; count_all takes no column ("count_all()").
Result<std::vector<Aggregate>> ParseAggregates(StepArgs& a) {
  ASSIGN_OR_RETURN(auto specs, a.StringMap("aggregates"));
  if (specs.empty()) return a.Error("aggregates", "no aggregates");
  std::vector<Aggregate> aggregates;
  for (const auto& [output, text] : specs) {
    const size_t open = text.find('(');
    if (open == std::string::npos || text.back() != ')') {
      return a.Error("aggregates", "'" + text + "' is not FUNCTION(COLUMN), e.g. sum(price)");
    }
    auto combiner = BuiltinCombiner(text.substr(0, open));
    if (!combiner.ok()) return a.Error("aggregates", combiner.status().message());
    aggregates.push_back(Aggregate{text.substr(open + 1, text.size() - open - 2), *combiner, output});
  }
  return aggregates;
}

Result<std::optional<PCollection>> BuildFlatten(StepContext& ctx) {
  return ctx.pipeline->Flatten(ctx.name, ctx.inputs);
}

Result<std::optional<PCollection>> BuildGroupByKey(StepContext& ctx) {
  ASSIGN_OR_RETURN(auto keys, ctx.args->StringList("keys"));
  return ctx.pipeline->GroupByKey(ctx.name, ctx.input(), keys, ctx.options.on_error);
}

Result<std::optional<PCollection>> BuildCombinePerKey(StepContext& ctx) {
  ASSIGN_OR_RETURN(auto keys, ctx.args->StringList("keys"));
  ASSIGN_OR_RETURN(auto aggregates, ParseAggregates(*ctx.args));
  return ctx.pipeline->CombinePerKey(ctx.name, ctx.input(), keys, aggregates, ctx.options.on_error);
}

Result<std::optional<PCollection>> BuildCombineGlobally(StepContext& ctx) {
  ASSIGN_OR_RETURN(auto aggregates, ParseAggregates(*ctx.args));
  return ctx.pipeline->CombineGlobally(ctx.name, ctx.input(), aggregates, ctx.options.on_error);
}

}  // namespace

void AddGroupingSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"flatten", "the rows of several steps of one schema, in input order", "", 1, -1, BuildFlatten,
                               NodeKind::kFlatten});
  (void)registry->Add(StepType{"group_by_key", "one row per key; other columns become lists", "keys", 1, 1, BuildGroupByKey,
                               NodeKind::kGroupByKey});
  (void)registry->Add(StepType{"combine_per_key", "one row per key with aggregates (count, count_all, sum, mean, min, max)",
                               "", 1, 1, BuildCombinePerKey, NodeKind::kCombinePerKey});
  (void)registry->Add(StepType{"combine_globally", "one row of aggregates over all rows", "aggregates", 1, 1,
                               BuildCombineGlobally, NodeKind::kCombineGlobally});
}

}  // namespace recflow::pipeline
