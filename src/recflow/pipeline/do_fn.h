// DoFn: user code a ParDo runs on every batch of its input, with the context it may use (side inputs, row errors, seeds).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"
#include "recflow/ops/row_errors.h"
#include "recflow/pipeline/element_batch.h"
#include "recflow/pipeline/run_files.h"
#include "recflow/pipeline/side_inputs.h"

namespace recflow::pipeline {

/// What a DoFn sees besides the batch itself.
class ProcessContext {
 public:
  /// `input` is the batch being processed; `unit_index` the position of its source unit in
  /// the stage's input order; `output_schema` what the DoFn's OutputSchema returned for the
  /// step's input when the pipeline was built (it must outlive the context); `run_files` the
  /// run's (its file system, stop token and the files it commits).
  ProcessContext(const SideInputs* side_inputs, const ElementBatch* input, uint64_t unit_index, ops::RowErrors* errors,
                 const SchemaPtr* output_schema, RunFiles* run_files)
      : side_inputs_(side_inputs),
        input_(input),
        unit_index_(unit_index),
        errors_(errors),
        output_schema_(output_schema),
        run_files_(run_files) {}

  /// The transform's side inputs, complete before the transform runs.
  const SideInputs& side_inputs() const { return *side_inputs_; }
  /// The schema the output must have, known since the pipeline was built: a DoFn uses it
  /// rather than deriving it again for every batch.
  const SchemaPtr& output_schema() const { return *output_schema_; }
  /// The run's file system (ExecContext::file_system): where a step reads and writes files of its own.
  FileSystem& file_system() const { return run_files_->file_system(); }
  /// The files the run commits besides its datasets (a file per row a step writes itself), and
  /// the run's stop token.
  RunFiles& run_files() const { return *run_files_; }
  /// Where to report rows that failed (the step's on_error policy decides what happens).
  ops::RowErrors& row_errors() { return *errors_; }
  /// The same context reporting failed rows to `errors` instead.
  ProcessContext WithRowErrors(ops::RowErrors* errors) const {
    ProcessContext copy = *this;
    copy.errors_ = errors;
    return copy;
  }
  /// The row of its source unit's decoded batch that input row `row` came from (the record of
  /// the unit it is; rows between two may have been dropped by earlier steps).
  int64_t UnitRow(int64_t row) const { return input_->UnitRow(row); }
  /// A number identifying input row `row` within the whole input, the same whatever the
  /// threads and batch boundaries: the seed of per-row randomness (random crops and flips).
  uint64_t RowKey(int64_t row) const {
    return (unit_index_ << 32) ^ static_cast<uint64_t>(input_->UnitRow(row));
  }

 private:
  const SideInputs* side_inputs_;
  const ElementBatch* input_;
  uint64_t unit_index_;
  ops::RowErrors* errors_;
  const SchemaPtr* output_schema_;
  RunFiles* run_files_;
};

/// What a DoFn made of one batch.
struct DoFnOutput {
  /// The output rows, in the DoFn's output schema.
  std::shared_ptr<RecordBatch> batch;
  /// parents[j] is the input row output row j came from; empty when output row i came from
  /// input row i (the same number of rows). Rows reported as failed must have no children
  /// unless the output keeps one row per input row.
  std::vector<int64_t> parents;
};

/// A transform of batches: any number of output rows per input row. Process runs on many
/// threads at once and must not change shared state without its own synchronisation.
class DoFn {
 public:
  virtual ~DoFn() = default;
  /// The schema of the output for input of schema `input`; called once when the pipeline is
  /// built, so type errors show before anything runs.
  virtual Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const = 0;
  /// Transforms one batch. Rows that fail go to ctx.row_errors(); a returned error fails the
  /// job, and when it concerns one input row it carries that row's index in `input` as its
  /// record (Status::WithRecord) so that the job's error names that row.
  virtual Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const = 0;
  /// The columns the DoFn writes, when it emits exactly one row per input row and passes every
  /// other column through unchanged under its name (a column transform); nothing when it may
  /// drop, add or reorder rows or change other columns (the default). An aggregate of columns
  /// it does not write then reads the DoFn's input instead, so that a fitting pass (a
  /// vocabulary after a scaling) need not wait for the pass that applies earlier fits.
  virtual std::optional<std::vector<std::string>> WrittenColumns() const { return std::nullopt; }
};

}  // namespace recflow::pipeline
