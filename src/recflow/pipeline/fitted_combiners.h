// Fitted combiners: the analysis half of tf.Transform-style ops — per-column moments (standard_scale,
// min_max_scale) and vocabularies — as combiners whose single result row a second pass reads as a side input.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "recflow/core/filesystem.h"

#include "recflow/ops/columns/moments.h"
#include "recflow/ops/columns/vocabulary.h"
#include "recflow/pipeline/combiner.h"
#include "recflow/pipeline/side_inputs.h"

namespace recflow::pipeline {

/// Moments of a numeric column as struct<count: int64, mean, m2, min, max: float64>; its state
/// (Combiner::StateType) is that struct too.
std::shared_ptr<const Combiner> MomentsCombiner();

/// The moments MomentsCombiner left in row `row` of `column`.
Result<ops::Moments> ReadMoments(const ArrayData& column, int64_t row);

/// The vocabulary of a utf8, binary or integer column (or list of them) as list<utf8>, most
/// frequent first. Its state is every value counted so far with its count, by value:
/// list<struct<value: binary, count: int64>>.
std::shared_ptr<const Combiner> VocabularyCombiner(ops::VocabularyOptions options);

/// The vocabulary VocabularyCombiner left in row `row` of `column`.
Result<ops::Vocabulary> ReadVocabulary(const ArrayData& column, int64_t row);

/// Writes the vocabulary in `fit`'s single row (VocabularyCombiner's output) to `path`, one value
/// per line (ops::WriteVocabularyFile): the vocabulary step's side file (a SideFileWriter).
Status WriteFittedVocabulary(const SideInputValue& fit, FileSystem& file_system, const std::string& path);

/// The vocabulary in a side input's single row, read (and its lookup table built) once per
/// fitted value and shared by every batch and thread of the pass. Thread-safe.
class VocabularyMemo {
 public:
  /// The vocabulary in column 0 of side input `name`'s single row.
  Result<std::shared_ptr<const ops::Vocabulary>> Get(const SideInputs& side_inputs, std::string_view name);

 private:
  std::mutex mutex_;
  std::shared_ptr<RecordBatch> fit_;  // the row `vocabulary_` was read from (kept alive: its address is the key)
  std::shared_ptr<const ops::Vocabulary> vocabulary_;
};

}  // namespace recflow::pipeline
