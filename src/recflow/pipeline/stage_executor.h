// StageExecutor: the one scheduler of recflow — read units (in order) → decode, transform and consume into sinks
// (parallel) → merge (in order) → process (parallel) → emit (in order) on a oneTBB parallel_pipeline, for every stage.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/core/exec_context.h"
#include "recflow/core/result.h"
#include "recflow/formats/sink.h"
#include "recflow/formats/source.h"

namespace recflow::pipeline {

/// Where a unit came from, known when it is read.
struct UnitInfo {
  size_t input = 0;         ///< which of the stage's inputs
  uint64_t index = 0;       ///< the unit's position among all units of the stage, from 0
  int64_t first_record = 0; ///< its input's records before it (set in order, before Assign)
  std::string file;         ///< the input's name for messages
};

/// What a program keeps for one unit between the steps; programs derive their own.
struct UnitState {
  virtual ~UnitState() = default;
};

/// A sink a stage feeds, and the step its errors name.
struct StageSink {
  Sink* sink = nullptr;
  std::string step;  ///< Merge, Process and Emit errors read "step 'STEP': ..."; empty: unchanged
};

/// How a program hands a unit's batches to the stage's sinks from Process: Consume runs at once,
/// on the calling thread, with that thread's local state of the sink.
class SinkFeed {
 public:
  virtual ~SinkFeed() = default;
  /// Sink `k` (an index into the stage's sinks) consumes `batch`; at most once per sink and unit.
  /// Errors are the sink's (the row within `batch`), for the program to name.
  virtual Status Feed(size_t k, const std::shared_ptr<RecordBatch>& batch) = 0;
};

/// The work a stage does with each unit besides its sinks. Process runs on any thread,
/// concurrently for different units; Assign runs on one thread at a time, in input order,
/// before the sinks merge the unit.
class StageProgram {
 public:
  virtual ~StageProgram() = default;
  /// Transforms the decoded unit (its batch may have zero rows) and feeds the results to the
  /// stage's sinks through `feed`. Errors are rebased (record index from the start of the input)
  /// and reported in input order.
  virtual Result<std::unique_ptr<UnitState>> Process(const UnitInfo& unit, DecodedUnit decoded, SinkFeed& feed) = 0;
  /// In order, before the sinks' Merge: what the program does in order (dead letters).
  virtual Status Assign(const UnitInfo& unit, UnitState* state) = 0;
  /// In order, after Assign and the sinks' Merge of `unit` and before the next unit's: the token
  /// `unit` carries (SourceUnit::token), delivered to the program and then to every sink
  /// (Sink::OnToken), also when the unit has no rows.
  virtual Status OnToken(const UnitInfo& unit, const FlowToken& token) {
    (void)unit;
    (void)token;
    return Status::OK();
  }
  /// In order, from Assign's thread: records input `input` left out (bad rows a source
  /// skipped), with rebased record indices.
  virtual void OnSkipped(size_t input, const SkippedRecord& record) = 0;
};

/// Live counters of a running stage; readable from any thread.
struct StageProgress {
  std::atomic<int64_t> input_bytes{0};  ///< input bytes of the units written so far
  std::atomic<int64_t> records{0};      ///< input records of those units, skipped ones excluded
  std::atomic<int64_t> skipped{0};      ///< records the sources left out so far
  std::atomic<int64_t> units_read{0};   ///< units read from the inputs
  std::atomic<int64_t> units_started{0};///< units whose Process began
  std::atomic<int64_t> units_done{0};   ///< units written
};

/// How a stage runs (its threads and stop token are the ExecContext's).
struct StageOptions {
  /// Units in flight at once (bounds memory); 0 = 2 × threads + 2.
  int max_in_flight = 0;
  /// Updated as the stage runs (may be null).
  StageProgress* progress = nullptr;
  /// A second token that stops the stage like the context's (a runner stopping one stage of
  /// several); never stopped by default.
  StopToken also_stop;
};

/// What a stage read.
struct StageStats {
  int64_t input_records = 0;  ///< records read, skipped ones included
  int64_t skipped_records = 0;
  int64_t input_bytes = 0;
  int threads = 0;
};

/// Runs `program` over every unit of `inputs`, one input after the other, on
/// `context.ResolvedThreads()` threads, feeding `sinks`: per unit, the program's Process (which
/// calls the sinks' Consume), then in input order the program's Assign and each fed sink's
/// Merge, then the sinks' Process in parallel and their Emit in input order; after the last
/// unit, each sink's Drain, processed and emitted the same way. A unit's token
/// (SourceUnit::token) goes, in input order right after that unit's Merges, to the program's and
/// then every sink's OnToken — a watermark as the stage's watermark: the minimum over the
/// inputs' (an input before the one being read has ended and holds nothing back; one that sent
/// none yet holds it at the start of time), delivered when it moved forward. The first error in input order stops the stage and is returned
/// (with the record index counted from the start of its input; a sink's Merge error that names a
/// record, as the sink counts them, gets the unit's file); the sinks are then the caller's to
/// abort. A stop requested on `context.stop_token` or `options.also_stop` (checked before each
/// unit is read, and once more after the last) stops it too: no unit is read after the check
/// that sees it, the units in flight are dropped without further steps, nothing is drained, and
/// the stage returns Cancelled. A drain requested on `context.drain_token` (checked before each
/// unit is read) ends each unbounded input (Source::unbounded) as its end would: it is not read
/// again, and the stage drains its sinks and returns as after a bounded input. Finish and
/// Commit are the caller's. Every buffer allocated by the stage's work (reading, decoding, the
/// program, the sinks, on any thread) comes from `context.memory_pool` (a ScopedMemoryPool per
/// unit and filter).
Result<StageStats> RunStage(const ExecContext& context, const std::vector<Source*>& inputs,
                            const std::vector<StageSink>& sinks, StageProgram* program, const StageOptions& options);

}  // namespace recflow::pipeline
