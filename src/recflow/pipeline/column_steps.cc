// The projection and scaling DoFns: a Projection applied as resolved; moments read from side input "fit", then
// ops::ColumnScaler.
#include "recflow/pipeline/column_steps.h"

#include "recflow/ops/columns/planned_schema.h"
#include "recflow/pipeline/fitted_combiners.h"

namespace recflow::pipeline {

namespace {

// select, drop or rename: a projection resolved against the step's input when it was built.
class ProjectionDoFn final : public DoFn {
 public:
  explicit ProjectionDoFn(ops::Projection projection) : projection_(std::move(projection)) {}
  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override {
    RETURN_NOT_OK(ops::CheckPlannedSchema(*projection_.input_schema(), *input, "projection"));
    return projection_.output_schema();
  }
  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext&) const override {
    ASSIGN_OR_RETURN(auto out, projection_.Apply(input));
    return DoFnOutput{std::move(out), {}};
  }

 private:
  ops::Projection projection_;
};

// standard_scale / min_max_scale, second pass: the columns resolved when the step was built,
// scaled by the moments of the side input "fit" (one column per scaled column).
class ScaleDoFn final : public DoFn {
 public:
  ScaleDoFn(ops::ColumnScaler scaler, std::vector<std::string> columns)
      : scaler_(std::move(scaler)), columns_(std::move(columns)) {}
  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override {
    RETURN_NOT_OK(ops::CheckPlannedSchema(*scaler_.input_schema(), *input, "scale"));
    return scaler_.output_schema();
  }
  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const override {
    ASSIGN_OR_RETURN(auto fit, ctx.side_inputs().Singleton("fit"));
    std::vector<ops::Moments> moments;
    for (int k = 0; k < fit->num_columns(); ++k) {
      ASSIGN_OR_RETURN(ops::Moments m, ReadMoments(*fit->column_data(k), 0));
      moments.push_back(m);
    }
    ASSIGN_OR_RETURN(auto out, scaler_.Apply(input, moments));
    return DoFnOutput{std::move(out), {}};
  }
  std::optional<std::vector<std::string>> WrittenColumns() const override { return columns_; }

 private:
  ops::ColumnScaler scaler_;
  std::vector<std::string> columns_;
};

}  // namespace

std::shared_ptr<const DoFn> MakeProjectionDoFn(ops::Projection projection) {
  return std::make_shared<ProjectionDoFn>(std::move(projection));
}

std::shared_ptr<const DoFn> MakeScaleDoFn(ops::ColumnScaler scaler, std::vector<std::string> columns) {
  return std::make_shared<ScaleDoFn>(std::move(scaler), std::move(columns));
}

}  // namespace recflow::pipeline
