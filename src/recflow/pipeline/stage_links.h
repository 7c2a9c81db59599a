// StageLinks: how the stages of a plan depend on each other when they run at once — which stage waits for which, and
// which grouped outputs stream through a bounded queue instead of being kept whole.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "recflow/pipeline/plan.h"

namespace recflow::pipeline {

/// The dependencies between the stages of one plan.
struct StageLinks {
  /// Per stage: the earlier stages that must have read all their input (and kept their side
  /// inputs and whole grouped outputs) before it starts — those making its side inputs and the
  /// grouped outputs it reads whole, and, when it writes dead letters, every earlier stage that
  /// writes some (so that dead-letter files get their lines in stage order).
  std::vector<std::set<size_t>> waits_for;
  /// Per GroupByKey / combine node: the stage it is a consumer of (where its input flows).
  std::map<int, size_t> producer;
  /// Per GroupByKey / combine node whose output streams: the one stage reading it. An output
  /// streams (through a bounded queue, taken while it is made) when exactly one stage reads it
  /// and no step takes it as a side input; any other is made whole before its readers start.
  std::map<int, size_t> streamed;
};

/// The dead-letter files the steps of `stage` write: those of its reads (records they cannot parse), of its
/// element-wise steps and of its sinks (a windowed grouping's late rows, written where its input flows; a grouped
/// node the stage reads wrote its letters in its own stage).
std::set<std::string> StageDeadLetters(const Pipeline& pipeline, const Stage& stage);

/// The links of `plan` (made by MakePlan for `pipeline`).
StageLinks LinkStages(const Pipeline& pipeline, const Plan& plan);

/// True when streamed grouped node `id` may hand its output to its reader while its own stage
/// still reads (a windowed grouping's fired panes): the reader does not wait, even through other
/// stages, for the grouping's stage to end, and reads no other grouped output before it (a
/// stage reads its inputs one after the other), so a full queue always has a reader coming.
bool PanesGoLive(const StageLinks& links, const Plan& plan, const Pipeline& pipeline, int id);

}  // namespace recflow::pipeline
