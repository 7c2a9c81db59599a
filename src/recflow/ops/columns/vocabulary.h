// Vocabularies: a mergeable value counter, the finished ranked vocabulary, and value → id lookup.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"

namespace recflow::ops {

/// std::hash of strings that also hashes string_views, for lookups without copies.
struct StringViewHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
/// A string-keyed hash map that finds string_view keys.
template <typename V>
using StringMap = std::unordered_map<std::string, V, StringViewHash, std::equal_to<>>;

/// A ranked list of distinct values; a value's id is its position.
class Vocabulary {
 public:
  /// Values in id order (must be distinct: InvalidArgument naming the first repeated one) and,
  /// optionally, their counts (empty, or one per value).
  static Result<Vocabulary> Make(std::vector<std::string> values, std::vector<int64_t> counts = {});
  /// An empty vocabulary.
  Vocabulary() = default;

  /// Number of values.
  int64_t size() const { return static_cast<int64_t>(values_.size()); }
  /// The values in id order.
  const std::vector<std::string>& values() const { return values_; }
  /// Their counts in the analyzed data (empty when not known, e.g. read from a plain file).
  const std::vector<int64_t>& counts() const { return counts_; }
  /// The id of `value`, or -1 when it is not in the vocabulary.
  int64_t Lookup(std::string_view value) const;

 private:
  std::vector<std::string> values_;
  std::vector<int64_t> counts_;
  StringMap<int64_t> ids_;
};

/// Which counted values make the vocabulary.
struct VocabularyOptions {
  int64_t top_k = -1;         ///< keep the first top_k values after ranking; -1: all
  int64_t min_frequency = 1;  ///< drop values seen fewer times

  /// All values seen at least once.
  static VocabularyOptions Defaults() { return {}; }
  /// InvalidArgument when top_k < -1 or min_frequency < 1.
  Status Validate() const;
};

/// How ApplyVocabulary maps values that are not in the vocabulary.
struct ApplyVocabularyOptions {
  int64_t num_oov_buckets = 0;  ///< > 0: out-of-vocabulary values get hashed ids after the vocabulary
  int64_t default_value = -1;   ///< the id of out-of-vocabulary values when num_oov_buckets is 0

  /// No OOV buckets, default id -1.
  static ApplyVocabularyOptions Defaults() { return {}; }
  /// InvalidArgument when num_oov_buckets < 0.
  Status Validate() const;
};

/// Counts values over partial batches, mergeable across parallel parts (analyze phase of a
/// vocabulary step). Values are keyed as HashBucket keys them: utf8/binary by their bytes,
/// integers by their decimal text; list<T> columns count every element. Nulls are skipped.
class VocabularyCounter {
 public:
  /// Counts the non-null values of `column`; TypeError for other types than utf8, binary
  /// (large too), integers and lists of them.
  Status Add(const ArrayData& column);
  /// Adds the counts of another part.
  void Merge(const VocabularyCounter& other);
  /// Adds `count` occurrences of `value`, a value as SortedCounts gives it (a counter's state
  /// read back).
  void AddCount(std::string_view value, int64_t count);
  /// Every counted value (as Add keys it: bytes, or an integer's decimal text) with its count,
  /// by ascending value (byte order): the counter's state in a form independent of how the
  /// input was split. The views live as long as the counter is not changed.
  std::vector<std::pair<std::string_view, int64_t>> SortedCounts() const;
  /// Number of distinct values counted.
  int64_t num_distinct() const { return static_cast<int64_t>(counts_.size()); }
  /// The values seen at least options.min_frequency times, by descending count then ascending
  /// value (byte order), cut to the first options.top_k. Deterministic for any split of the
  /// input into parts. Fails only when the options are invalid.
  Result<Vocabulary> Finish(const VocabularyOptions& options = VocabularyOptions::Defaults()) const;

 private:
  StringMap<int64_t> counts_;
};

/// The id of each value of `column` (types as VocabularyCounter::Add) in `vocab`, as int64
/// (list<T> → list<int64>). A value not in the vocabulary gets vocab.size() +
/// HashBucketOf(value, num_oov_buckets) when options.num_oov_buckets > 0, else
/// options.default_value. Nulls stay null. InvalidArgument for invalid options; TypeError for
/// other column types.
Result<std::shared_ptr<ArrayData>> ApplyVocabulary(
    const ArrayData& column, const Vocabulary& vocab,
    const ApplyVocabularyOptions& options = ApplyVocabularyOptions::Defaults());

}  // namespace recflow::ops
