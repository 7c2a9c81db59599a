// StageExecutor: the one scheduler of recflow — read units (in order) → decode and transform (parallel) → assign (in
// order) → compress (parallel) → write (in order) on a oneTBB parallel_pipeline, for convert and for every pipeline stage.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "recflow/core/exec_context.h"
#include "recflow/core/result.h"
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

/// The work a stage does with each unit. Process and Compress run on any thread, concurrently
/// for different units; Assign and Write run on one thread at a time, in input order.
class StageProgram {
 public:
  virtual ~StageProgram() = default;
  /// Transforms the decoded unit (its batch may have zero rows). Errors are rebased (record
  /// index from the start of the input) and reported in input order.
  virtual Result<std::unique_ptr<UnitState>> Process(const UnitInfo& unit, DecodedUnit decoded) = 0;
  /// In order: hands the unit's results to whatever needs them in order (files, combines).
  virtual Status Assign(const UnitInfo& unit, UnitState* state) = 0;
  /// Compresses what Assign produced.
  virtual Status Compress(UnitState* state) = 0;
  /// In order: writes what Compress produced.
  virtual Status Write(UnitState* state) = 0;
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
};

/// What a stage read.
struct StageStats {
  int64_t input_records = 0;  ///< records read, skipped ones included
  int64_t skipped_records = 0;
  int64_t input_bytes = 0;
  int threads = 0;
};

/// Runs `program` over every unit of `inputs`, one input after the other, on
/// `context.ResolvedThreads()` threads. The first error in input order stops the stage and is
/// returned (with the record index counted from the start of its input); the program's outputs
/// are then the caller's to abort. A stop requested on `context.stop_token` (checked before
/// each unit is read, and once more after the last) stops it too: no unit is read after the
/// check that sees it, the units in flight are dropped without further steps, and the stage
/// returns Cancelled. `finish`, when set, runs inside the stage's thread arena after the last
/// unit (to flush and compress the rest), unless the stage failed or was stopped.
Result<StageStats> RunStage(const ExecContext& context, const std::vector<Source*>& inputs, StageProgram* program,
                            const StageOptions& options, const std::function<Status()>& finish = nullptr);

}  // namespace recflow::pipeline
