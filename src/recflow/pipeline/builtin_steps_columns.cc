// Built-in column steps: select, drop, rename, cast, filter, fill_null, standard_scale, min_max_scale, vocabulary,
// one_hot and hash_bucket (fitted ones as an analysis combine plus a second pass reading it as a side input).
#include "recflow/columnar/take.h"
#include "recflow/ops/columns/cast.h"
#include "recflow/ops/columns/fill_null.h"
#include "recflow/ops/columns/hash_bucket.h"
#include "recflow/ops/columns/one_hot.h"
#include "recflow/ops/columns/planned_schema.h"
#include "recflow/ops/columns/predicate.h"
#include "recflow/ops/columns/scale.h"
#include "recflow/ops/columns/select.h"
#include "recflow/ops/columns/type_name.h"
#include "recflow/pipeline/builtin_steps_internal.h"
#include "recflow/pipeline/column_steps.h"
#include "recflow/pipeline/column_do_fn.h"
#include "recflow/pipeline/fitted_combiners.h"

namespace recflow::pipeline {

namespace {

using BuildResult = Result<std::optional<PCollection>>;

PCollection AddParDo(StepContext& ctx, std::shared_ptr<const DoFn> fn) {
  return ctx.pipeline->ParDo(ctx.name, ctx.input(), std::move(fn), ctx.options);
}

// The type of column `name` of the step's input; the error names the step's argument.
Result<FieldPtr> InputField(StepContext& ctx, const std::string& key, const std::string& name) {
  ASSIGN_OR_RETURN(const int index, InputColumn(ctx, key, name));
  return ctx.input().schema()->field(index);
}

// The step's ParDo applying `projection`, or the error resolving it.
BuildResult AddProjection(StepContext& ctx, Result<ops::Projection> projection) {
  if (!projection.ok()) return projection.status();
  return AddParDo(ctx, MakeProjectionDoFn(std::move(projection).ValueUnsafe()));
}

BuildResult BuildSelect(StepContext& ctx) {
  ASSIGN_OR_RETURN(auto names, ctx.args->StringList("columns"));
  return AddProjection(ctx, ops::Projection::Select(ctx.input().schema(), names));
}

BuildResult BuildDrop(StepContext& ctx) {
  ASSIGN_OR_RETURN(auto names, ctx.args->StringList("columns"));
  return AddProjection(ctx, ops::Projection::Drop(ctx.input().schema(), names));
}

BuildResult BuildRename(StepContext& ctx) {
  ASSIGN_OR_RETURN(auto renames, ctx.args->StringMap("columns"));
  return AddProjection(ctx, ops::Projection::Rename(ctx.input().schema(), renames));
}

BuildResult BuildCast(StepContext& ctx) {
  ASSIGN_OR_RETURN(auto casts, ctx.args->StringMap("columns"));
  std::vector<ColumnJob> jobs;
  for (const auto& [column, type_name] : casts) {
    auto type = ops::ParseTypeName(type_name);
    if (!type.ok()) return ctx.args->Error("columns", type.status().message());
    ASSIGN_OR_RETURN(FieldPtr field, InputField(ctx, "columns", column));
    if (!ops::CanCast(*field->type(), **type)) {
      return ctx.args->Error("columns", "cannot cast '" + column + "' from " + field->type()->ToString() + " to " +
                                            (*type)->ToString());
    }
    jobs.push_back(ColumnJob{column, field->WithType(*type),
                             [to = *type](const std::shared_ptr<ArrayData>& in, ProcessContext& c) {
                               return ops::Cast(*in, to, c.row_errors());
                             }});
  }
  return AddParDo(ctx, MakeColumnDoFn(std::move(jobs)));
}

// Keeps the rows a predicate selects; their parents are the selected rows.
class FilterDoFn final : public DoFn {
 public:
  explicit FilterDoFn(std::shared_ptr<const ops::Predicate> predicate) : predicate_(std::move(predicate)) {}
  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override { return input; }
  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext&) const override {
    DoFnOutput out;
    ASSIGN_OR_RETURN(out.parents, predicate_->SelectRows(input));
    ASSIGN_OR_RETURN(out.batch, TakeRows(input, out.parents));
    return out;
  }

 private:
  std::shared_ptr<const ops::Predicate> predicate_;
};

BuildResult BuildFilter(StepContext& ctx) {
  ASSIGN_OR_RETURN(std::string text, ctx.args->String("expr"));
  auto predicate = ops::ParsePredicate(text, *ctx.input().schema());
  if (!predicate.ok()) return ctx.args->Error("expr", predicate.status().message());
  return AddParDo(ctx, std::make_shared<FilterDoFn>(std::move(predicate).ValueUnsafe()));
}

BuildResult BuildFillNull(StepContext& ctx) {
  ASSIGN_OR_RETURN(auto fills, ctx.args->StringMap("columns"));
  std::vector<ColumnJob> jobs;
  for (const auto& [column, value] : fills) {
    ASSIGN_OR_RETURN(FieldPtr field, InputField(ctx, "columns", column));
    auto filler = ops::NullFiller::Make(ops::Scalar{value}, field->type());
    if (!filler.ok()) return ctx.args->Error("columns", filler.status().message());
    jobs.push_back(ColumnJob{column, field->WithNullable(false),
                             [filler = *filler](const std::shared_ptr<ArrayData>& in, ProcessContext&) {
                               return filler.Fill(in);
                             }});
  }
  return AddParDo(ctx, MakeColumnDoFn(std::move(jobs)));
}

// standard_scale / min_max_scale: moments of each column in a first pass, then scaling.
BuildResult BuildScale(StepContext& ctx, bool min_max) {
  ASSIGN_OR_RETURN(auto columns, ctx.args->StringList("columns"));
  if (columns.empty()) return ctx.args->Error("columns", "no columns");
  std::vector<Aggregate> aggregates;
  for (const std::string& column : columns) {
    RETURN_NOT_OK(InputField(ctx, "columns", column).status());
    aggregates.push_back(Aggregate{column, MomentsCombiner(), column});
  }
  ASSIGN_OR_RETURN(ops::ColumnScaler scaler, ops::ColumnScaler::Make(ctx.input().schema(), columns, min_max));
  PCollection fit = ctx.pipeline->CombineGlobally(ctx.name + ".fit", ctx.input(), std::move(aggregates));
  ctx.options.side_inputs.emplace_back("fit", fit);
  return AddParDo(ctx, MakeScaleDoFn(std::move(scaler), std::move(columns)));
}

// vocabulary: the column's vocabulary in a first pass, then ids (and optionally the file).
BuildResult BuildVocabulary(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::string column, a.String("column"));
  ASSIGN_OR_RETURN(std::string output, a.String("output", column + "_id"));
  ops::VocabularyOptions options;
  ASSIGN_OR_RETURN(options.top_k, a.Int("top_k", -1));
  ASSIGN_OR_RETURN(options.min_frequency, a.Int("min_frequency", 1));
  if (Status st = options.Validate(); !st.ok()) return a.Error("top_k", st.message());
  ops::ApplyVocabularyOptions apply;
  ASSIGN_OR_RETURN(apply.num_oov_buckets, a.Int("num_oov_buckets", 0));
  ASSIGN_OR_RETURN(apply.default_value, a.Int("default", -1));
  if (Status st = apply.Validate(); !st.ok()) return a.Error("num_oov_buckets", st.message());
  ASSIGN_OR_RETURN(std::string file, a.String("file", ""));
  ASSIGN_OR_RETURN(FieldPtr field, InputField(ctx, "column", column));
  PCollection fit = ctx.pipeline->CombineGlobally(ctx.name + ".fit", ctx.input(),
                                                  {Aggregate{column, VocabularyCombiner(options), "vocabulary"}});
  if (!file.empty()) {
    ASSIGN_OR_RETURN(file, ctx.ArgPath("file", file));
    if (Status st = ctx.pipeline->AddSideFile(file, fit, WriteFittedVocabulary); !st.ok())
      return a.Error("file", st.message());
  }
  ctx.options.side_inputs.emplace_back("fit", fit);
  const DataTypePtr ids = field->type()->id() == TypeId::kList ? list(int64()) : int64();
  auto memo = std::make_shared<VocabularyMemo>();
  return AddParDo(ctx, MakeColumnDoFn({ColumnJob{column, Field::Make(output, ids),
                                                 [apply, memo](const std::shared_ptr<ArrayData>& in, ProcessContext& c)
                                                     -> Result<std::shared_ptr<ArrayData>> {
                                                   ASSIGN_OR_RETURN(auto vocabulary, memo->Get(c.side_inputs(), "fit"));
                                                   return ops::ApplyVocabulary(*in, *vocabulary, apply);
                                                 }}}));
}

BuildResult BuildOneHot(StepContext& ctx) {
  ASSIGN_OR_RETURN(std::string column, ctx.args->String("column"));
  ASSIGN_OR_RETURN(int64_t depth, ctx.args->Int("depth"));
  ASSIGN_OR_RETURN(std::string output, ctx.args->String("output", column + "_one_hot"));
  if (depth <= 0 || depth > (int64_t{1} << 24)) return ctx.args->Error("depth", "must be in 1..16777216");
  ASSIGN_OR_RETURN(FieldPtr field, InputField(ctx, "column", column));
  if (!field->type()->is_integer()) return ctx.args->Error("column", "one_hot needs integer ids, not " + field->type()->ToString());
  const int32_t d = static_cast<int32_t>(depth);
  return AddParDo(ctx, MakeColumnDoFn({ColumnJob{column, Field::Make(output, ops::OneHotType(d)),
                                                 [d](const std::shared_ptr<ArrayData>& in, ProcessContext&) {
                                                   return ops::OneHot(*in, d);
                                                 }}}));
}

BuildResult BuildHashBucket(StepContext& ctx) {
  ASSIGN_OR_RETURN(std::string column, ctx.args->String("column"));
  ASSIGN_OR_RETURN(int64_t buckets, ctx.args->Int("num_buckets"));
  ASSIGN_OR_RETURN(std::string output, ctx.args->String("output", column + "_bucket"));
  if (buckets <= 0) return ctx.args->Error("num_buckets", "must be positive");
  ASSIGN_OR_RETURN(FieldPtr field, InputField(ctx, "column", column));
  return AddParDo(ctx, MakeColumnDoFn({ColumnJob{column, Field::Make(output, int64(), field->nullable()),
                                                 [buckets](const std::shared_ptr<ArrayData>& in, ProcessContext&) {
                                                   return ops::HashBucket(*in, buckets);
                                                 }}}));
}

}  // namespace

Result<int> InputColumn(StepContext& ctx, std::string_view key, const std::string& name) {
  const SchemaPtr& schema = ctx.input().schema();
  const int index = schema->GetFieldIndex(name);
  if (index < 0) return ctx.args->Error(key, "no column '" + name + "' in " + schema->ToString());
  return index;
}

void AddColumnSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"select", "keep these columns, in this order", "columns", 1, 1, BuildSelect});
  (void)registry->Add(StepType{"drop", "remove these columns", "columns", 1, 1, BuildDrop});
  (void)registry->Add(StepType{"rename", "rename columns {old: new}", "columns", 1, 1, BuildRename});
  (void)registry->Add(StepType{"cast", "convert columns {name: type}; values that do not convert are row errors",
                               "columns", 1, 1, BuildCast});
  (void)registry->Add(StepType{"filter", "keep rows matching an expression (age >= 18 and not vip)", "expr", 1, 1,
                               BuildFilter});
  (void)registry->Add(StepType{"fill_null", "replace nulls {name: value}", "columns", 1, 1, BuildFillNull});
  (void)registry->Add(StepType{"standard_scale", "(x - mean) / std, fitted over the data first", "columns", 1, 1,
                               [](StepContext& ctx) { return BuildScale(ctx, false); }, NodeKind::kParDo, /*fitted=*/true});
  (void)registry->Add(StepType{"min_max_scale", "(x - min) / (max - min), fitted over the data first", "columns", 1, 1,
                               [](StepContext& ctx) { return BuildScale(ctx, true); }, NodeKind::kParDo, /*fitted=*/true});
  (void)registry->Add(StepType{"vocabulary", "ids of a column's values by a vocabulary fitted over the data first", "column",
                               1, 1, BuildVocabulary, NodeKind::kParDo, /*fitted=*/true});
  (void)registry->Add(StepType{"one_hot", "ids as one-hot float32 vectors", "", 1, 1, BuildOneHot});
  (void)registry->Add(StepType{"hash_bucket", "xxHash64 of a value modulo num_buckets", "", 1, 1, BuildHashBucket});
}

}  // namespace recflow::pipeline
