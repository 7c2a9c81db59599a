// --split and --splits-from: the splits `recflow splits` printed, read by cat and convert instead of whole inputs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/split.h"
#include "recflow/formats/source.h"
#include "recflow/dataset/dataset_source.h"

namespace recflow::cli {

/// Raw values of the split flags, as parsed by CLI11.
struct SplitFlags {
  /// --split: each one split's JSON text, in order.
  std::vector<std::string> splits;
  /// --splits-from: a file ("-" = standard input) holding one split's JSON per line.
  std::string splits_from;
  /// True when either flag was given.
  bool given() const { return !splits.empty() || !splits_from.empty(); }
};

/// The splits the flags name, --split ones first, then those of --splits-from in line order
/// (blank lines skipped). InvalidArgument naming the flag (and line) for a split that does not
/// parse, or when no split is named.
Result<std::vector<dataset::Split>> ReadSplitFlags(const SplitFlags& flags);

/// Reads `splits` one after the other as one Source (dataset::OpenSplits). Every split must be
/// of one format and have the same partition columns. The schema is the one `options` fixes
/// (--schema), else the one reading the splits' files whole would infer (dataset::OpenInputs
/// over them, each once, in order) — the same in every process given the same files and flags,
/// so processes reading different files' splits should pass one --schema — then the partition
/// columns the splits record.
Result<std::unique_ptr<Source>> OpenSplitInputs(const std::vector<dataset::Split>& splits,
                                                const dataset::InputOptions& options);

}  // namespace recflow::cli
