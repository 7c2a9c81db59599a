// Fitted combiners: the analysis half of tf.Transform-style ops — per-column moments (standard_scale,
// min_max_scale) and vocabularies — as combiners whose single result row a second pass reads as a side input.
#pragma once

#include <memory>
#include <string>

#include "recflow/ops/columns/moments.h"
#include "recflow/ops/columns/vocabulary.h"
#include "recflow/pipeline/combiner.h"

namespace recflow::pipeline {

/// Moments of a numeric column as struct<count: int64, mean, m2, min, max: float64>.
std::shared_ptr<const Combiner> MomentsCombiner();

/// The moments MomentsCombiner left in row `row` of `column`.
Result<ops::Moments> ReadMoments(const ArrayData& column, int64_t row);

/// The vocabulary of a utf8, binary or integer column (or list of them) as list<utf8>, most
/// frequent first; also written to `file` (one value per line) when it is not empty.
std::shared_ptr<const Combiner> VocabularyCombiner(ops::VocabularyOptions options, std::string file);

/// The vocabulary VocabularyCombiner left in row `row` of `column`.
Result<ops::Vocabulary> ReadVocabulary(const ArrayData& column, int64_t row);

}  // namespace recflow::pipeline
