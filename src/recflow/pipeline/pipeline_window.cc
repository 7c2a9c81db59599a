// Pipeline::Window and the windowing of groupings: which windows a PCollection's rows are in, checked when built.
#include <algorithm>

#include "recflow/pipeline/pipeline.h"
#include "recflow/pipeline/window_columns.h"

namespace recflow::pipeline {

namespace {

// The window step's function: rows pass unchanged (their windows are the node's Windowing).
class WindowDoFn final : public DoFn {
 public:
  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override { return input; }
  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext&) const override {
    return DoFnOutput{std::make_shared<RecordBatch>(input), {}};
  }
  std::optional<std::vector<std::string>> WrittenColumns() const override { return std::vector<std::string>(); }
};

bool IsGrouping(NodeKind kind) {
  return kind == NodeKind::kGroupByKey || kind == NodeKind::kCombinePerKey || kind == NodeKind::kCombineGlobally;
}

}  // namespace

PCollection Pipeline::Window(std::string name, const PCollection& input, Windowing windowing) {
  if (!CheckInput(name, input)) return PCollection(this, -1);
  const int column = input.schema()->GetFieldIndex(windowing.event_time);
  Status st = column < 0 ? Status::InvalidArgument("no event time column '" + windowing.event_time + "' (columns: " +
                                                   input.schema()->ToString() + ")")
                         : CheckEventTimeField(*input.schema()->field(column));
  if (!st.ok()) {
    Fail(name, st);
    return PCollection(this, -1);
  }
  Node node;
  node.name = std::move(name);
  node.kind = NodeKind::kParDo;
  node.inputs = {input.node()};
  node.schema = input.schema();
  node.fn = std::make_shared<WindowDoFn>();
  node.description = windowing.strategy.ToString() + ", event time " + windowing.event_time;
  node.windowing = std::make_shared<const Windowing>(std::move(windowing));
  return Add(std::move(node));
}

std::shared_ptr<const Windowing> Pipeline::RowWindowing(int id) const {
  const Node& n = nodes_[static_cast<size_t>(id)];
  return IsGrouping(n.kind) ? nullptr : n.windowing;
}

bool Pipeline::WindowGrouping(Node& node, const PCollection& input, std::vector<FieldPtr>* fields,
                              std::vector<std::string>* read) {
  node.windowing = RowWindowing(input.node());
  if (node.windowing == nullptr) return true;
  if (input.schema()->GetFieldIndex(node.windowing->event_time) < 0) {
    Fail(node.name, Status::InvalidArgument("the event time column '" + node.windowing->event_time +
                                            "' of its windows is gone (a step after the window dropped it)"));
    return false;
  }
  for (const FieldPtr& field : WindowColumnFields()) {
    const bool taken = std::any_of(fields->begin(), fields->end(), [&](const FieldPtr& f) { return f->name() == field->name(); });
    if (taken) {
      Fail(node.name, Status::InvalidArgument("column '" + field->name() +
                                              "' would be output twice: a windowed grouping adds it (rename yours)"));
      return false;
    }
    fields->push_back(field);
  }
  if (read != nullptr) read->push_back(node.windowing->event_time);
  return true;
}

}  // namespace recflow::pipeline
