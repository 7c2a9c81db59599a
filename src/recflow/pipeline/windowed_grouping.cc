// WindowedGrouping: rows to key and window, panes out as the trigger fires; GroupByKey lists or combine accumulators per pane.
#include "recflow/pipeline/windowed_grouping.h"

#include <algorithm>
#include <deque>
#include <numeric>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/chunked_take.h"
#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/element_access.h"
#include "recflow/formats/jsonl/json_writer.h"
#include "recflow/formats/jsonl/row_json.h"
#include "recflow/pipeline/grouping_internal.h"
#include "recflow/pipeline/window/windowed_state.h"
#include "recflow/pipeline/window_columns.h"

namespace recflow::pipeline {

namespace {

using window::Millis;

// What both windowed groupings share: keys, event times, the window state, late rows, panes.
class WindowedBase : public WindowedGrouping {
 public:
  WindowedBase(const Node& node, SchemaPtr input, std::vector<int> keys, DeadLetters* letters, StepMetrics* metrics)
      : node_(node), input_(std::move(input)), keys_(std::move(keys)),
        event_time_(input_->GetFieldIndex(node.windowing->event_time)), state_(node.windowing->strategy),
        letters_(letters), metrics_(metrics) {}

  struct Part final : SinkPartial {
    std::shared_ptr<RecordBatch> batch;
    BatchGroups groups;
    std::vector<Millis> times;
  };

  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState*, const std::shared_ptr<RecordBatch>& batch) const override {
    auto part = std::make_unique<Part>();
    part->batch = batch;
    ASSIGN_OR_RETURN(part->groups, GroupRows(*batch, keys_));
    RETURN_NOT_OK(EventTimes(*batch->column_data(event_time_), *input_->field(event_time_),
                             node_.windowing->event_time_micros, &part->times));
    return std::unique_ptr<SinkPartial>(std::move(part));
  }

  Status Merge(SinkPartial* partial) override {
    auto* part = static_cast<Part*>(partial);
    BeginBatch(part->batch);
    ops_.clear();
    dropped_.clear();
    for (size_t g = 0; g < part->groups.keys.size(); ++g) {
      bool created = false;
      const int64_t key = table_.Find(part->groups.keys[g], &created);
      if (created) table_.AddKeyRow(part->groups.key_rows, static_cast<int64_t>(g));
      for (int64_t row : part->groups.rows[g]) state_.Add(key, row, part->times[static_cast<size_t>(row)], &ops_, &dropped_);
    }
    RETURN_NOT_OK(Apply(ops_, *part->batch));
    RETURN_NOT_OK(ReportLate(*part->batch));
    std::vector<window::Pane> panes;
    state_.EndBundle(&panes);
    return Output(panes, false);
  }

  Status OnToken(const FlowToken& token) override {
    std::vector<window::Pane> panes;
    if (token.kind == FlowToken::Kind::kWatermark) state_.AdvanceWatermark(token.time, &panes);
    if (token.kind == FlowToken::Kind::kProcessingTime) state_.AdvanceProcessingTime(token.time, &panes);
    RETURN_NOT_OK(Output(panes, true));
    if (queue_ == nullptr) return Status::OK();
    if (token.kind == FlowToken::Kind::kProcessingTime) {
      (void)queue_->PushToken(token);
    } else if (token.kind == FlowToken::Kind::kWatermark) {
      const Millis output = std::min(token.time, state_.OutputHold());
      if (output > output_watermark_) {
        output_watermark_ = output;
        if (rows_in_epoch_) {  // the reader's epoch ends at this token: its snapshot is handed over before it
          rows_in_epoch_ = false;
          ++epochs_;
          if (hook_.has_value() && hook_->wanted(token.time)) RETURN_NOT_OK(HandSnapshot(token.time));
        }
        (void)queue_->PushToken(FlowToken{FlowToken::Kind::kWatermark, output});
      }
    }
    return Status::OK();
  }

  Result<std::unique_ptr<SinkPartial>> Drain() override {
    std::vector<window::Pane> panes;
    state_.AdvanceWatermark(window::kEndOfTime, &panes);  // the input ended: every window fires
    RETURN_NOT_OK(Output(panes, true));
    if (hook_.has_value()) {
      ++epochs_;
      RETURN_NOT_OK(HandSnapshot(window::kEndOfTime));
    }
    return std::unique_ptr<SinkPartial>();
  }

  Result<GroupingSnapshot> Snapshot() override {
    const window::StateSnapshot state = state_.Snapshot();
    GroupingSnapshot snapshot{state.watermark, state.processing_time, output_watermark_, nullptr, nullptr, nullptr};
    const SchemaPtr key_schema = KeySchema(*input_, keys_);
    std::vector<int64_t> every_key(static_cast<size_t>(table_.size()));
    std::iota(every_key.begin(), every_key.end(), 0);
    ASSIGN_OR_RETURN(auto key_columns, table_.KeyColumnsOf(key_schema, every_key));
    ASSIGN_OR_RETURN(snapshot.keys, RecordBatch::Make(key_schema, table_.size(), std::move(key_columns)));
    std::vector<FieldPtr> fields = WindowSnapshotFields();
    ASSIGN_OR_RETURN(auto columns, WindowSnapshotColumns(state.windows));
    RETURN_NOT_OK(SnapshotContents(state.windows, &fields, &columns, &snapshot.rows));
    ASSIGN_OR_RETURN(snapshot.windows, RecordBatch::Make(Schema::Make(std::move(fields)),
                                                         static_cast<int64_t>(state.windows.size()), std::move(columns)));
    return snapshot;
  }

  Status Restore(const GroupingSnapshot& snapshot) override {
    const SchemaPtr key_schema = KeySchema(*input_, keys_);
    if (!snapshot.keys->schema()->Equals(*key_schema)) {
      return Status::DataError("the snapshot's keys " + snapshot.keys->schema()->ToString() + " are not the step's " +
                               key_schema->ToString());
    }
    std::vector<int> key_columns(keys_.size());
    std::iota(key_columns.begin(), key_columns.end(), 0);
    ASSIGN_OR_RETURN(BatchGroups groups, GroupRows(*snapshot.keys, key_columns));
    if (static_cast<int64_t>(groups.keys.size()) != snapshot.keys->num_rows()) return Status::DataError("the snapshot's keys repeat");
    for (size_t g = 0; g < groups.keys.size(); ++g) {
      bool created = false;
      (void)table_.Find(groups.keys[g], &created);
      table_.AddKeyRow(groups.key_rows, static_cast<int64_t>(g));
    }
    ASSIGN_OR_RETURN(std::vector<window::WindowSnapshot> windows, ReadWindowSnapshots(*snapshot.windows));
    RETURN_NOT_OK(state_.Restore(window::StateSnapshot{snapshot.watermark, snapshot.processing_time, windows}, table_.size()));
    output_watermark_ = snapshot.output_watermark;
    return RestoreContents(windows, snapshot);
  }

 protected:
  // Called before a batch's ops: the batch their elements (rows) index.
  virtual void BeginBatch(const std::shared_ptr<RecordBatch>& batch) = 0;
  // Applies the content ops of one batch, in order.
  virtual Status Apply(const std::vector<window::ContentOp>& ops, const RecordBatch& batch) = 0;
  // Appends pane `pane`'s output row (when pane.output) and clears its slot unless pane.keep.
  virtual Status Emit(const window::Pane& pane) = 0;
  // Output rows fired and not yet taken by NextOutput.
  virtual int64_t pending_rows() const = 0;
  // Appends to a snapshot's windows what each open one holds (its fields and columns), and the rows they hold.
  virtual Status SnapshotContents(const std::vector<window::WindowSnapshot>& windows, std::vector<FieldPtr>* fields,
                                  std::vector<std::shared_ptr<ArrayData>>* columns, std::shared_ptr<RecordBatch>* rows) = 0;
  // Puts what each open window of `snapshot` holds into its slot (the open windows' slots are 0, 1, ... in order).
  virtual Status RestoreContents(const std::vector<window::WindowSnapshot>& windows, const GroupingSnapshot& snapshot) = 0;
  // The column after the WindowSnapshotFields of `snapshot`'s windows named `name` with type `type`; DataError if none.
  static Result<std::shared_ptr<ArrayData>> ContentColumn(const GroupingSnapshot& snapshot, size_t k, const std::string& name,
                                                          const DataType& type) {
    const int c = static_cast<int>(WindowSnapshotFields().size() + k);
    if (c >= snapshot.windows->num_columns() || snapshot.windows->schema()->field(c)->name() != name ||
        !snapshot.windows->schema()->field(c)->type()->Equals(type)) {
      return Status::DataError("the snapshot's windows have no column '" + name + "' of type " + type.ToString());
    }
    return snapshot.windows->column_data(c);
  }

  // The key columns of the output rows `groups`.
  Result<std::vector<std::shared_ptr<ArrayData>>> KeyColumns(std::span<const int64_t> groups) {
    return table_.KeyColumnsOf(KeySchema(*input_, keys_), groups);
  }

  const Node& node_;
  SchemaPtr input_;
  std::vector<int> keys_;
  std::vector<int64_t> out_groups_;  // each pending output row's key group
  std::vector<PaneRow> out_panes_;   // each pending output row's window and pane

 private:
  // Records the fired `panes`. Streaming (StreamPanes), hands off every whole batch of pending rows, and with
  // `all` (a token moved time on, or the input ended) the rest too: between tokens, batches are cut where the
  // panes of a whole run cut them (so a bounded input gives the batches, and files, of NextOutput at its end).
  Status Output(const std::vector<window::Pane>& panes, bool all) {
    for (const window::Pane& pane : panes) {
      if (pane.output) {
        out_groups_.push_back(pane.key);
        out_panes_.push_back(PaneRow{pane.window, pane.info, pane.timestamp});
      }
      RETURN_NOT_OK(Emit(pane));
    }
    if (queue_ == nullptr) return Status::OK();
    while (pending_rows() >= queue_rows_ || (all && pending_rows() > 0)) {
      ASSIGN_OR_RETURN(auto batch, NextOutput(queue_rows_));
      metrics_->rows_out.fetch_add(batch->num_rows(), std::memory_order_relaxed);
      (void)queue_->Push(std::move(batch));  // a reader that stopped: the panes are still made, as at the end
      rows_in_epoch_ = true;
    }
    return Status::OK();
  }

  // Hands the hook the snapshot at the end of epoch epochs_, at input watermark `watermark`.
  Status HandSnapshot(Millis watermark) {
    ASSIGN_OR_RETURN(GroupingSnapshot snapshot, Snapshot());
    return hook_->taken(epochs_, watermark, std::move(snapshot));
  }

  // Rows that joined none of some window: dead letters, skips or the run's error, in row order.
  Status ReportLate(const RecordBatch& batch) {
    if (dropped_.empty()) return Status::OK();
    std::stable_sort(dropped_.begin(), dropped_.end(),
                     [](const window::Dropped& a, const window::Dropped& b) { return a.element < b.element; });
    const ErrorPolicy& policy = node_.on_error;
    metrics_->failed_rows.fetch_add(static_cast<int64_t>(dropped_.size()), std::memory_order_relaxed);
    std::optional<jsonl::RowJsonRenderer> renderer;
    if (policy.mode == ErrorPolicy::Mode::kDeadLetter) renderer.emplace(*batch.schema(), false);
    for (const window::Dropped& d : dropped_) {
      const int64_t unit_row =
          origin_.unit_rows.empty() ? d.element : origin_.unit_rows[static_cast<size_t>(d.element)];
      const std::string why =
          "event time " + std::to_string(d.event_time) + " is too late for window [" + std::to_string(d.window.start) +
          ", " + std::to_string(d.window.end) + ") at watermark " + std::to_string(d.watermark) +
          (d.window_closed ? " (its trigger has finished)"
                           : " (allowed lateness " + std::to_string(node_.windowing->strategy.allowed_lateness) + " ms)");
      if (policy.mode == ErrorPolicy::Mode::kFail) {
        return Status::DataError(why + "; set on_error: dead_letter or skip to keep going")
            .WithFile(origin_.file).WithRecord(origin_.first_record + unit_row);
      }
      if (policy.mode == ErrorPolicy::Mode::kSkip) {
        metrics_->skipped_rows.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
      metrics_->dead_letters.fetch_add(1, std::memory_order_relaxed);
      DeadLetter letter{node_.name, unit_row, Status::DataError("late data: " + why), std::string(),
                        {{"event_time", d.event_time}, {"watermark", d.watermark}, {"window_start", d.window.start},
                         {"window_end", d.window.end}}};
      jsonl::JsonWriter writer(&letter.row_json);
      if (!renderer->Render(batch, d.element, &writer).ok()) letter.row_json = "null";
      RETURN_NOT_OK(letters_->Write(policy.dead_letter, letter, origin_.file, origin_.first_record + unit_row));
    }
    return Status::OK();
  }

  int event_time_;
  window::WindowedState state_;
  KeyTable table_;
  DeadLetters* letters_;
  StepMetrics* metrics_;
  std::vector<window::ContentOp> ops_;
  std::vector<window::Dropped> dropped_;
  Millis output_watermark_ = window::kMinTime;  // the last one passed on (StreamPanes)
  bool rows_in_epoch_ = false;  // pane rows were passed on since the last epoch ended (StreamPanes)
  int64_t epochs_ = 0;          // epochs of the reader ended so far in this run (StreamPanes)
};

// GroupByKey per window: each slot holds its rows (indices among every input row seen); an input batch is kept
// while a slot or a pending pane holds one of its rows.
class WindowedGroupByKey final : public WindowedBase {
 public:
  WindowedGroupByKey(const Node& node, SchemaPtr input, std::vector<int> keys, std::vector<int> values,
                     DeadLetters* letters, StepMetrics* metrics)
      : WindowedBase(node, std::move(input), std::move(keys), letters, metrics), values_(std::move(values)) {}

  Result<std::shared_ptr<RecordBatch>> NextOutput(int64_t batch_rows) override {
    const int64_t begin = next_;
    const int64_t total = static_cast<int64_t>(out_panes_.size());
    if (begin >= total) {
      ClearOutput();
      return nullptr;
    }
    const int64_t end = std::min(total, begin + batch_rows);
    next_ = end;
    const auto groups = std::span<const int64_t>(out_groups_).subspan(static_cast<size_t>(begin), static_cast<size_t>(end - begin));
    ASSIGN_OR_RETURN(auto columns, KeyColumns(groups));
    const int64_t first = out_offsets_[static_cast<size_t>(begin)];
    const int64_t last = out_offsets_[static_cast<size_t>(end)];
    if (last - first > kMaxInt32Offset) return Status::InvalidArgument("the panes of a GroupByKey batch hold more than 2^31 values");
    BufferBuilder offsets;
    for (int64_t i = begin; i <= end; ++i) {
      RETURN_NOT_OK(offsets.AppendValue(static_cast<int32_t>(out_offsets_[static_cast<size_t>(i)] - first)));
    }
    const std::shared_ptr<Buffer> offset_buffer = offsets.Finish();
    ASSIGN_OR_RETURN(std::vector<std::shared_ptr<ArrayData>> gathered, Gather(first, last));
    const Schema& output = *node_.schema;
    for (size_t v = 0; v < values_.size(); ++v) {
      const FieldPtr& field = output.field(static_cast<int>(keys_.size() + v));
      columns.push_back(ArrayData::Make(field->type(), end - begin, {nullptr, offset_buffer}, 0, 0, {std::move(gathered[v])}));
    }
    ASSIGN_OR_RETURN(auto window_columns,
                     WindowColumns(std::span<const PaneRow>(out_panes_).subspan(static_cast<size_t>(begin), static_cast<size_t>(end - begin))));
    columns.insert(columns.end(), window_columns.begin(), window_columns.end());
    if (next_ == total) {
      ClearOutput();
    } else if (next_ > total / 2) {
      Compact();
    }
    return RecordBatch::Make(node_.schema, end - begin, std::move(columns));
  }

 private:
  // An input batch and how many of its rows slots and pending panes hold.
  struct Held {
    int64_t base = 0;  // the index of its first row among every input row seen
    std::shared_ptr<RecordBatch> batch;
    int64_t live = 0;
  };

  int64_t pending_rows() const override { return static_cast<int64_t>(out_panes_.size()) - next_; }

  Status SnapshotContents(const std::vector<window::WindowSnapshot>& windows, std::vector<FieldPtr>* fields,
                          std::vector<std::shared_ptr<ArrayData>>* columns, std::shared_ptr<RecordBatch>* rows) override {
    NumericBuilder<int64_t> counts;
    std::vector<int64_t> held_rows;
    for (const window::WindowSnapshot& w : windows) {
      const std::vector<int64_t>* slot = w.slot >= 0 && static_cast<size_t>(w.slot) < slots_.size() ? &slots_[static_cast<size_t>(w.slot)] : nullptr;
      RETURN_NOT_OK(counts.Append(slot != nullptr ? static_cast<int64_t>(slot->size()) : 0));
      if (slot != nullptr) held_rows.insert(held_rows.end(), slot->begin(), slot->end());
    }
    fields->push_back(Field::Make("rows", int64(), false));
    ASSIGN_OR_RETURN(auto count_column, counts.Finish());
    columns->push_back(std::move(count_column));
    std::vector<int> every_column(static_cast<size_t>(input_->num_fields()));
    std::iota(every_column.begin(), every_column.end(), 0);
    ASSIGN_OR_RETURN(auto taken, TakeHeld(held_rows, every_column));
    ASSIGN_OR_RETURN(*rows, RecordBatch::Make(input_, static_cast<int64_t>(held_rows.size()), std::move(taken)));
    return Status::OK();
  }

  Status RestoreContents(const std::vector<window::WindowSnapshot>& windows, const GroupingSnapshot& snapshot) override {
    if (snapshot.rows == nullptr || !snapshot.rows->schema()->Equals(*input_)) {
      return Status::DataError("the snapshot's rows are not of the step's input " + input_->ToString());
    }
    ASSIGN_OR_RETURN(auto counts, ContentColumn(snapshot, 0, "rows", *int64()));
    int64_t row = 0;
    for (size_t w = 0; w < windows.size(); ++w) {
      const int64_t count = IntegerValue(*counts, static_cast<int64_t>(w));
      if (count < 0 || count > snapshot.rows->num_rows() - row || (windows[w].closed && count > 0)) {
        return Status::DataError("window " + std::to_string(w) + " of the snapshot holds " + std::to_string(count) +
                                 " of its " + std::to_string(snapshot.rows->num_rows()) + " rows");
      }
      if (windows[w].closed) continue;
      std::vector<int64_t>& slot = slots_.emplace_back(static_cast<size_t>(count));
      std::iota(slot.begin(), slot.end(), row);
      row += count;
    }
    if (row != snapshot.rows->num_rows()) return Status::DataError("the snapshot holds rows no window holds");
    held_.push_back(Held{0, snapshot.rows, row});
    rows_seen_ = row;
    return Status::OK();
  }

  void BeginBatch(const std::shared_ptr<RecordBatch>& batch) override {
    Prune();
    held_.push_back(Held{rows_seen_, batch, 0});
    base_ = rows_seen_;
    rows_seen_ += batch->num_rows();
  }

  Status Apply(const std::vector<window::ContentOp>& ops, const RecordBatch&) override {
    for (const window::ContentOp& op : ops) {
      const size_t need = static_cast<size_t>(std::max(op.slot, op.other)) + 1;
      if (slots_.size() < need) slots_.resize(need);
      std::vector<int64_t>& into = slots_[static_cast<size_t>(op.slot)];
      if (op.kind == window::ContentOp::Kind::kAdd) {
        into.push_back(base_ + op.other);
        ++held_.back().live;
      } else {
        std::vector<int64_t>& from = slots_[static_cast<size_t>(op.other)];
        into.insert(into.end(), from.begin(), from.end());
        std::vector<int64_t>().swap(from);
      }
    }
    return Status::OK();
  }

  Status Emit(const window::Pane& pane) override {
    std::vector<int64_t>& rows = slots_[static_cast<size_t>(pane.slot)];
    if (pane.output) {
      out_rows_.insert(out_rows_.end(), rows.begin(), rows.end());
      out_offsets_.push_back(static_cast<int64_t>(out_rows_.size()));
      if (pane.keep) {
        for (int64_t row : rows) ++held_[HeldIndex(row)].live;  // the slot and the pane each hold them
      }
    } else if (!pane.keep) {
      for (int64_t row : rows) --held_[HeldIndex(row)].live;
    }
    if (!pane.keep) std::vector<int64_t>().swap(rows);
    return Status::OK();
  }

  // The index in held_ of the batch holding input row `row`.
  size_t HeldIndex(int64_t row) const {
    auto it = std::upper_bound(held_.begin(), held_.end(), row, [](int64_t r, const Held& h) { return r < h.base; });
    return static_cast<size_t>(it - held_.begin()) - 1;
  }

  // Lets go of the input batches no row of which is held any more.
  void Prune() {
    for (Held& h : held_) {
      if (h.live == 0) h.batch.reset();
    }
    while (!held_.empty() && held_.front().batch == nullptr) held_.pop_front();
  }

  // The values (per value column) of the pending panes' input rows out_rows_[first, last), taken from the held
  // batches where they are (never concatenated: that would copy every held row for each output), which no longer
  // hold those rows.
  Result<std::vector<std::shared_ptr<ArrayData>>> Gather(int64_t first, int64_t last) {
    const std::span<const int64_t> rows(out_rows_.data() + first, static_cast<size_t>(last - first));
    ASSIGN_OR_RETURN(auto values, TakeHeld(rows, values_));
    for (int64_t row : rows) --held_[HeldIndex(row)].live;
    return values;
  }

  // Columns `columns` of input rows `rows` (indices among every input row seen; each in a held batch), in that order.
  Result<std::vector<std::shared_ptr<ArrayData>>> TakeHeld(std::span<const int64_t> rows,
                                                           std::span<const int> columns) const {
    std::vector<int64_t> starts, lengths;
    std::vector<std::shared_ptr<RecordBatch>> batches;
    for (const Held& h : held_) {
      if (h.batch == nullptr) continue;
      starts.push_back(h.base);
      lengths.push_back(h.batch->num_rows());
      batches.push_back(h.batch);
    }
    ASSIGN_OR_RETURN(ChunkedIndices plan, ChunkedIndices::Make(starts, lengths, rows));
    return plan.TakeColumns(batches, *input_, columns);
  }

  // Every pending pane was output.
  void ClearOutput() {
    out_groups_.clear();
    out_panes_.clear();
    out_rows_.clear();
    out_offsets_.assign(1, 0);
    next_ = 0;
  }

  // Drops the panes output so far from the pending lists.
  void Compact() {
    const auto n = static_cast<std::ptrdiff_t>(next_);
    const int64_t first = out_offsets_[static_cast<size_t>(next_)];
    out_groups_.erase(out_groups_.begin(), out_groups_.begin() + n);
    out_panes_.erase(out_panes_.begin(), out_panes_.begin() + n);
    out_rows_.erase(out_rows_.begin(), out_rows_.begin() + first);
    out_offsets_.erase(out_offsets_.begin(), out_offsets_.begin() + n);
    for (int64_t& offset : out_offsets_) offset -= first;
    next_ = 0;
  }

  std::vector<int> values_;
  std::deque<Held> held_;                        // by base, earliest first
  std::vector<std::vector<int64_t>> slots_;
  std::vector<int64_t> out_rows_;               // the pending panes' values, pane after pane
  std::vector<int64_t> out_offsets_{0};          // where each pending output row's values start in out_rows_
  int64_t rows_seen_ = 0;
  int64_t base_ = 0;
  int64_t next_ = 0;                             // the pending output rows taken so far
};

// CombinePerKey / CombineGlobally per window: each slot holds one accumulator per aggregate.
class WindowedCombine final : public WindowedBase {
 public:
  using Accumulators = std::vector<std::unique_ptr<Accumulator>>;

  WindowedCombine(const Node& node, SchemaPtr input, std::vector<int> keys, std::vector<int> columns,
                  DeadLetters* letters, StepMetrics* metrics)
      : WindowedBase(node, std::move(input), std::move(keys), letters, metrics), columns_(std::move(columns)) {}

  Status Init() {
    for (size_t a = 0; a < node_.aggregates.size(); ++a) {
      ASSIGN_OR_RETURN(auto builder, MakeBuilder(node_.schema->field(static_cast<int>(keys_.size() + a))->type()));
      builders_.push_back(std::move(builder));
    }
    return Status::OK();
  }

  Result<std::shared_ptr<RecordBatch>> NextOutput(int64_t batch_rows) override {
    const int64_t left = all_ != nullptr ? all_->num_rows() - next_ : 0;
    if (left < batch_rows && !out_panes_.empty()) {  // the panes fired since join what is left
      ASSIGN_OR_RETURN(auto columns, KeyColumns(out_groups_));
      for (auto& builder : builders_) {
        ASSIGN_OR_RETURN(auto column, builder->Finish());
        columns.push_back(std::move(column));
      }
      ASSIGN_OR_RETURN(auto window_columns, WindowColumns(out_panes_));
      columns.insert(columns.end(), window_columns.begin(), window_columns.end());
      ASSIGN_OR_RETURN(auto fired, RecordBatch::Make(node_.schema, static_cast<int64_t>(out_panes_.size()), std::move(columns)));
      out_groups_.clear();
      out_panes_.clear();
      if (left > 0) {
        ASSIGN_OR_RETURN(fired, ConcatenateBatches(node_.schema, {all_->Slice(next_, left), fired}));
      }
      all_ = std::move(fired);
      next_ = 0;
    }
    if (all_ == nullptr) return nullptr;
    const int64_t length = std::min(batch_rows, all_->num_rows() - next_);
    auto batch = all_->Slice(next_, length);
    next_ += length;
    if (next_ >= all_->num_rows()) all_.reset();  // every pending pane was output
    return batch;
  }

 private:
  int64_t pending_rows() const override {
    return static_cast<int64_t>(out_panes_.size()) + (all_ != nullptr ? all_->num_rows() - next_ : 0);
  }

  void BeginBatch(const std::shared_ptr<RecordBatch>&) override {}

  // The type of aggregate `a`'s accumulator state; InvalidArgument when it has none (user code).
  Result<DataTypePtr> StateType(size_t a) const {
    const int c = columns_[a];
    DataTypePtr type = node_.aggregates[a].combiner->StateType(c >= 0 ? *input_->field(c)->type() : *null());
    if (type == nullptr) {
      return Status::InvalidArgument("aggregate '" + node_.aggregates[a].output + "' (" + node_.aggregates[a].combiner->name() +
                                     ") has no state form: a checkpoint cannot snapshot it");
    }
    return type;
  }

  Status SnapshotContents(const std::vector<window::WindowSnapshot>& windows, std::vector<FieldPtr>* fields,
                          std::vector<std::shared_ptr<ArrayData>>* columns, std::shared_ptr<RecordBatch>*) override {
    for (size_t a = 0; a < node_.aggregates.size(); ++a) {
      ASSIGN_OR_RETURN(DataTypePtr type, StateType(a));
      ASSIGN_OR_RETURN(auto builder, MakeBuilder(type));
      for (const window::WindowSnapshot& w : windows) {
        if (w.slot < 0) {
          RETURN_NOT_OK(builder->AppendNull());
        } else {
          RETURN_NOT_OK(Slot(w.slot)[a]->AppendState(builder.get()));
        }
      }
      fields->push_back(Field::Make(node_.aggregates[a].output, type));
      ASSIGN_OR_RETURN(auto column, builder->Finish());
      columns->push_back(std::move(column));
    }
    return Status::OK();
  }

  Status RestoreContents(const std::vector<window::WindowSnapshot>& windows, const GroupingSnapshot& snapshot) override {
    std::vector<std::shared_ptr<ArrayData>> states;
    for (size_t a = 0; a < node_.aggregates.size(); ++a) {
      ASSIGN_OR_RETURN(DataTypePtr type, StateType(a));
      ASSIGN_OR_RETURN(auto column, ContentColumn(snapshot, a, node_.aggregates[a].output, *type));
      states.push_back(std::move(column));
    }
    for (size_t w = 0; w < windows.size(); ++w) {
      if (windows[w].closed) continue;
      Accumulators accumulators = NewAccumulators();
      for (size_t a = 0; a < accumulators.size(); ++a) {
        Status st = accumulators[a]->MergeState(*states[a], static_cast<int64_t>(w));
        if (!st.ok()) return st.WithField(node_.aggregates[a].output);
      }
      slots_.push_back(std::move(accumulators));
      pending_.emplace_back();
    }
    return Status::OK();
  }

  // Adds the rows waiting for slot `slot` to its accumulators.
  Status Flush(int64_t slot, const RecordBatch& batch) {
    std::vector<int64_t>& rows = pending_[static_cast<size_t>(slot)];
    if (rows.empty()) return Status::OK();
    Accumulators& accumulators = Slot(slot);
    for (size_t a = 0; a < accumulators.size(); ++a) {
      const int c = columns_[a];
      Status st = accumulators[a]->Add(c >= 0 ? *batch.column_data(c) : *no_column_, rows);
      if (!st.ok()) return st.WithField(node_.aggregates[a].output);
    }
    rows.clear();
    return Status::OK();
  }

  Accumulators& Slot(int64_t slot) {
    Accumulators& accumulators = slots_[static_cast<size_t>(slot)];
    if (accumulators.empty()) accumulators = NewAccumulators();
    return accumulators;
  }

  Status Apply(const std::vector<window::ContentOp>& ops, const RecordBatch& batch) override {
    std::vector<int64_t> touched;
    for (const window::ContentOp& op : ops) {
      const size_t need = static_cast<size_t>(std::max(op.slot, op.other)) + 1;
      if (slots_.size() < need) {
        slots_.resize(need);
        pending_.resize(need);
      }
      if (op.kind == window::ContentOp::Kind::kAdd) {
        auto& rows = pending_[static_cast<size_t>(op.slot)];
        if (rows.empty()) touched.push_back(op.slot);
        rows.push_back(op.other);
        continue;
      }
      // Sessions merged: what each side holds so far, then the accumulators folded together.
      RETURN_NOT_OK(Flush(op.slot, batch));
      RETURN_NOT_OK(Flush(op.other, batch));
      Accumulators& into = Slot(op.slot);
      Accumulators& from = Slot(op.other);
      for (size_t a = 0; a < into.size(); ++a) {
        Status st = into[a]->Merge(*from[a]);
        if (!st.ok()) return st.WithField(node_.aggregates[a].output);
      }
      from.clear();
    }
    for (int64_t slot : touched) RETURN_NOT_OK(Flush(slot, batch));
    return Status::OK();
  }

  Status Emit(const window::Pane& pane) override {
    Accumulators& accumulators = Slot(pane.slot);
    if (pane.output) {
      for (size_t a = 0; a < accumulators.size(); ++a) RETURN_NOT_OK(accumulators[a]->Finish(builders_[a].get()));
    }
    if (!pane.keep) accumulators.clear();
    return Status::OK();
  }

  Accumulators NewAccumulators() const {
    Accumulators accumulators;
    for (size_t a = 0; a < node_.aggregates.size(); ++a) {
      const int c = columns_[a];
      accumulators.push_back(node_.aggregates[a].combiner->NewAccumulator(c >= 0 ? *input_->field(c)->type() : *null()));
    }
    return accumulators;
  }

  std::vector<int> columns_;  // each aggregate's input column (-1: none)
  std::shared_ptr<ArrayData> no_column_ = ArrayData::Make(null(), 0, {nullptr}, 0);  // count_all's input
  std::vector<Accumulators> slots_;
  std::vector<std::vector<int64_t>> pending_;  // per slot: rows of the current batch not yet added
  std::vector<std::unique_ptr<ArrayBuilder>> builders_;  // per aggregate: the pending output rows' values
  std::shared_ptr<RecordBatch> all_;  // the pending panes being output
  int64_t next_ = 0;                  // its rows taken so far
};

}  // namespace

Result<std::unique_ptr<WindowedGrouping>> WindowedGrouping::Make(const Node& node, const SchemaPtr& input,
                                                                 DeadLetters* letters, StepMetrics* metrics) {
  GroupingColumns c = ColumnsOf(node, *input);
  if (node.kind == NodeKind::kGroupByKey) {
    return std::unique_ptr<WindowedGrouping>(
        std::make_unique<WindowedGroupByKey>(node, input, c.keys, c.values, letters, metrics));
  }
  auto combine = std::make_unique<WindowedCombine>(node, input, c.keys, c.aggregated, letters, metrics);
  RETURN_NOT_OK(combine->Init());
  return std::unique_ptr<WindowedGrouping>(std::move(combine));
}

}  // namespace recflow::pipeline
