// PipelineStageProgram: per unit, the stage's steps in graph order from the unit's root, then the results fed to the
// stage's sinks (writes, groupings, kept side inputs, the caller's outputs); dead letters in input order.
#include "recflow/pipeline/stage_program_internal.h"

#include <optional>

#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/take.h"
#include "recflow/formats/jsonl/json_writer.h"
#include "recflow/formats/jsonl/row_json.h"
#include "recflow/ops/columns/planned_schema.h"

namespace recflow::pipeline {

namespace {

// One unit's dead letters, written in input order, and the unit rows of the batches fed to windowed groupings.
struct PipelineUnitState final : UnitState {
  std::vector<std::pair<std::string, DeadLetter>> letters;  // path, letter
  std::vector<std::pair<int, std::vector<int64_t>>> windowed_rows;  // node, ElementBatch::unit_rows of its batch
};

// `st` of step `node`, named in the message (unless the pipeline names no steps in errors). A
// row's error keeps the file its step read (an image that would not load) in the message, so the
// context's file is the pipeline input the row came from.
Status StepError(const Pipeline& pipeline, const Node& node, const Status& st, bool row_error = false) {
  if (!pipeline.steps_named_in_errors()) return st;
  const ErrorContext& c = st.context();
  std::string message = "step '" + node.name + "': ";
  if (row_error && !c.file.empty() && st.message().find(c.file) == std::string::npos) message += c.file + ": ";
  Status out(st.code(), message + st.message());
  if (!row_error && !c.file.empty()) out = out.WithFile(c.file);
  if (!row_error && c.offset >= 0) out = out.WithOffset(c.offset);
  if (c.record >= 0) out = out.WithRecord(c.record);
  if (!c.field.empty()) out = out.WithField(c.field);
  return out;
}

// `st`, returned by a DoFn run on `input`, with its record the unit row of the input row it
// names (see DoFn::Process), or of the batch's first row when it names none.
Status AtUnitRow(const Status& st, const ElementBatch& input) {
  const int64_t row = st.context().record;
  if (row < 0 || row >= input.num_rows()) return st.WithRecord(input.UnitRow(0));
  return st.RebaseRecord(input.UnitRow(row) - row);
}

// The rows of `batches` one after the other, with their unit rows.
Result<ElementBatch> Concat(const std::vector<const ElementBatch*>& batches) {
  if (batches.size() == 1) return *batches[0];
  ElementBatch out;
  std::vector<std::shared_ptr<RecordBatch>> data;
  for (const ElementBatch* b : batches) {
    data.push_back(b->data);
    for (int64_t i = 0; i < b->num_rows(); ++i) out.unit_rows.push_back(b->UnitRow(i));
  }
  ASSIGN_OR_RETURN(out.data, ConcatenateBatches(batches[0]->data->schema(), data));
  return out;
}

}  // namespace

PipelineStageProgram::PipelineStageProgram(StageResources resources) : r_(std::move(resources)) {}

Result<ElementBatch> PipelineStageProgram::RunParDo(const Node& node, const ElementBatch& input, const UnitInfo& unit,
                                                    std::vector<DeadLetter>* letters) const {
  StepMetrics& m = r_.metrics->step(node.id);
  ops::RowErrors errors;
  static const SideInputs kNone;
  auto sides = r_.side_inputs->find(node.id);
  ProcessContext ctx(sides == r_.side_inputs->end() ? &kNone : &sides->second, &input, unit.index, &errors,
                     &node.schema, r_.run_files);
  Result<DoFnOutput> result = [&] {
    BusyTimer timer(&m.busy_ns);
    return node.fn->Process(*input.data, ctx);
  }();
  if (!result.ok()) return StepError(*r_.pipeline, node, AtUnitRow(result.status(), input));
  DoFnOutput out = std::move(result).ValueUnsafe();
  // Later steps rely on the schema planned from OutputSchema (DoFns look columns up in it).
  if (Status st = ops::CheckPlannedSchema(*node.schema, *out.batch->schema(), "the DoFn's output"); !st.ok()) {
    return StepError(*r_.pipeline, node, Status::Internal(st.message() + ", as its OutputSchema said"));
  }
  m.rows_in.fetch_add(input.num_rows(), std::memory_order_relaxed);
  m.batches.fetch_add(1, std::memory_order_relaxed);
  if (!out.parents.empty() || out.batch->num_rows() != input.num_rows()) {
    if (out.parents.size() != static_cast<size_t>(out.batch->num_rows())) {
      return StepError(*r_.pipeline, node, Status::Internal("the DoFn returned " + std::to_string(out.batch->num_rows()) +
                                              " rows but " + std::to_string(out.parents.size()) + " parents"));
    }
  }
  if (!errors.empty()) {
    m.failed_rows.fetch_add(static_cast<int64_t>(errors.errors().size()), std::memory_order_relaxed);
    if (node.on_error.mode == ErrorPolicy::Mode::kFail) {
      const ops::RowError& first = errors.errors().front();
      return StepError(*r_.pipeline, node, first.status, true).WithRecord(input.UnitRow(first.row));
    }
    // Drop the failed rows' output; dead-letter them with their values.
    std::vector<bool> failed(static_cast<size_t>(input.num_rows()), false);
    std::optional<jsonl::RowJsonRenderer> renderer;
    if (node.on_error.mode == ErrorPolicy::Mode::kDeadLetter) renderer.emplace(*input.data->schema(), false);
    for (const ops::RowError& e : errors.errors()) {
      failed[static_cast<size_t>(e.row)] = true;
      if (renderer) {
        DeadLetter letter{node.name, input.UnitRow(e.row), StepError(*r_.pipeline, node, e.status, true), std::string()};
        jsonl::JsonWriter writer(&letter.row_json);
        if (!renderer->Render(*input.data, e.row, &writer).ok()) letter.row_json = "null";
        letters->push_back(std::move(letter));
      }
    }
    (node.on_error.mode == ErrorPolicy::Mode::kSkip ? m.skipped_rows : m.dead_letters)
        .fetch_add(static_cast<int64_t>(errors.errors().size()), std::memory_order_relaxed);
    std::vector<int64_t> keep, parents;
    for (int64_t j = 0; j < out.batch->num_rows(); ++j) {
      const int64_t parent = out.parents.empty() ? j : out.parents[static_cast<size_t>(j)];
      if (failed[static_cast<size_t>(parent)]) continue;
      keep.push_back(j);
      parents.push_back(parent);
    }
    if (static_cast<int64_t>(keep.size()) != out.batch->num_rows()) {
      ASSIGN_OR_RETURN(out.batch, TakeRows(*out.batch, keep));
    }
    out.parents = std::move(parents);
  }
  ElementBatch result_batch;
  result_batch.data = std::move(out.batch);
  if (!out.parents.empty() || result_batch.num_rows() != input.num_rows()) {
    for (int64_t parent : out.parents) result_batch.unit_rows.push_back(input.UnitRow(parent));
  } else {
    result_batch.unit_rows = input.unit_rows;
  }
  m.rows_out.fetch_add(result_batch.num_rows(), std::memory_order_relaxed);
  return result_batch;
}

Result<std::unique_ptr<UnitState>> PipelineStageProgram::Process(const UnitInfo& unit, DecodedUnit decoded,
                                                                 SinkFeed& feed) {
  const Pipeline& p = *r_.pipeline;
  const Stage& stage = *r_.stage;
  auto state = std::make_unique<PipelineUnitState>();
  std::map<int, ElementBatch> outputs;
  const int root = stage.roots[unit.input];
  if (p.node(root).kind == NodeKind::kRead) {  // a grouped root counted its rows when it finished
    StepMetrics& m = r_.metrics->step(root);
    m.rows_out.fetch_add(decoded.batch->num_rows(), std::memory_order_relaxed);
    m.batches.fetch_add(1, std::memory_order_relaxed);
  }
  outputs[root] = ElementBatch{std::move(decoded.batch), {}};
  for (int id : stage.steps) {
    const Node& node = p.node(id);
    std::vector<const ElementBatch*> inputs;
    for (int input : node.inputs) {
      auto it = outputs.find(input);
      if (it != outputs.end()) inputs.push_back(&it->second);
    }
    if (inputs.empty()) continue;  // not reachable from this unit's root
    if (node.kind == NodeKind::kFlatten) {
      ASSIGN_OR_RETURN(outputs[id], Concat(inputs));
      StepMetrics& m = r_.metrics->step(id);
      m.rows_in.fetch_add(outputs[id].num_rows(), std::memory_order_relaxed);
      m.rows_out.fetch_add(outputs[id].num_rows(), std::memory_order_relaxed);
      m.batches.fetch_add(1, std::memory_order_relaxed);
      continue;
    }
    std::vector<DeadLetter> letters;
    ASSIGN_OR_RETURN(outputs[id], RunParDo(node, *inputs[0], unit, &letters));
    for (DeadLetter& letter : letters) state->letters.emplace_back(node.on_error.dead_letter, std::move(letter));
  }
  for (int id : stage.sinks) {
    const Node& node = p.node(id);
    auto it = outputs.find(node.inputs[0]);
    if (it == outputs.end()) continue;
    const ElementBatch& batch = it->second;
    StepMetrics& m = r_.metrics->step(id);
    BusyTimer timer(&m.busy_ns);
    m.rows_in.fetch_add(batch.num_rows(), std::memory_order_relaxed);
    m.batches.fetch_add(1, std::memory_order_relaxed);
    if (Status st = feed.Feed(r_.consumer_sinks.at(id), batch.data); !st.ok()) {
      // A row the sink names (a bad event time) is named by its row in the unit.
      const int64_t row = st.context().record;
      if (row >= 0 && row < batch.num_rows()) st = st.RebaseRecord(batch.UnitRow(row) - row);
      return StepError(*r_.pipeline, node, st);
    }
    if (r_.windowed.count(id) != 0) state->windowed_rows.emplace_back(id, batch.unit_rows);
  }
  // Nodes whose own rows a sink takes: kept side inputs and the caller's outputs.
  for (const auto& [ids, sinks] : {std::pair{&stage.materialized, &r_.kept_sinks}, std::pair{&stage.outputs, &r_.output_sinks}}) {
    for (int id : *ids) {
      auto it = outputs.find(id);
      if (it == outputs.end()) continue;
      if (Status st = feed.Feed(sinks->at(id), it->second.data); !st.ok()) return StepError(p, p.node(id), st);
    }
  }
  return std::unique_ptr<UnitState>(std::move(state));
}

Status PipelineStageProgram::Assign(const UnitInfo& unit, UnitState* state) {
  RETURN_NOT_OK(skipped_error_);
  auto* s = static_cast<PipelineUnitState*>(state);
  for (auto& [path, letter] : s->letters) {
    RETURN_NOT_OK(r_.dead_letters->Write(path, letter, unit.file, unit.first_record + letter.unit_row));
  }
  s->letters.clear();
  for (auto& [id, rows] : s->windowed_rows) {
    r_.windowed.at(id)->SetOrigin(RowOrigin{unit.file, unit.first_record, std::move(rows)});
  }
  return Status::OK();
}

void PipelineStageProgram::OnSkipped(size_t input, const SkippedRecord& record) {
  const Node& root = r_.pipeline->node(r_.stage->roots[input]);
  StepMetrics& m = r_.metrics->step(root.id);
  m.failed_rows.fetch_add(1, std::memory_order_relaxed);
  if (root.on_error.mode != ErrorPolicy::Mode::kDeadLetter) {
    m.skipped_rows.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  m.dead_letters.fetch_add(1, std::memory_order_relaxed);
  Status st = r_.dead_letters->WriteSkipped(root.on_error.dead_letter, root.name, record);
  if (!st.ok() && skipped_error_.ok()) skipped_error_ = st;
}

}  // namespace recflow::pipeline
