// Vocabulary, VocabularyCounter and ApplyVocabulary.
#include "recflow/ops/columns/vocabulary.h"

#include <algorithm>

#include "recflow/ops/columns/hash_bucket.h"
#include "recflow/ops/columns/value_key_internal.h"

namespace recflow::ops {

Status VocabularyOptions::Validate() const {
  if (top_k < -1) return Status::InvalidArgument("vocabulary: top_k must be -1 (all) or more, not " + std::to_string(top_k));
  if (min_frequency < 1) {
    return Status::InvalidArgument("vocabulary: min_frequency must be at least 1, not " + std::to_string(min_frequency));
  }
  return Status::OK();
}

Status ApplyVocabularyOptions::Validate() const {
  if (num_oov_buckets < 0) {
    return Status::InvalidArgument("apply_vocabulary: num_oov_buckets must not be negative, not " +
                                   std::to_string(num_oov_buckets));
  }
  return Status::OK();
}

Result<Vocabulary> Vocabulary::Make(std::vector<std::string> values, std::vector<int64_t> counts) {
  if (!counts.empty() && counts.size() != values.size()) {
    return Status::InvalidArgument("vocabulary: " + std::to_string(values.size()) + " values but " +
                                   std::to_string(counts.size()) + " counts");
  }
  Vocabulary vocab;
  vocab.values_ = std::move(values);
  vocab.counts_ = std::move(counts);
  vocab.ids_.reserve(vocab.values_.size());
  for (size_t i = 0; i < vocab.values_.size(); ++i) {
    if (!vocab.ids_.emplace(vocab.values_[i], static_cast<int64_t>(i)).second) {
      return Status::InvalidArgument("vocabulary: the value '" + vocab.values_[i] + "' appears twice (ids " +
                                     std::to_string(vocab.ids_.find(vocab.values_[i])->second) + " and " + std::to_string(i) + ")");
    }
  }
  return vocab;
}

int64_t Vocabulary::Lookup(std::string_view value) const {
  const auto it = ids_.find(value);
  return it == ids_.end() ? -1 : it->second;
}

Status VocabularyCounter::Add(const ArrayData& column) {
  if (column.type->id() == TypeId::kList) return Add(*internal::ListValuesSlice(column));
  if (!internal::HasValueKey(*column.type)) {
    return Status::TypeError("vocabulary: column is " + column.type->ToString() +
                             " (takes utf8, binary, integers and lists of them)");
  }
  std::string scratch;
  for (int64_t i = 0; i < column.length; ++i) {
    if (!internal::IsValidAt(column, i)) continue;
    const std::string_view key = internal::ValueKey(column, i, &scratch);
    auto it = counts_.find(key);
    if (it == counts_.end()) {
      counts_.emplace(std::string(key), 1);
    } else {
      ++it->second;
    }
  }
  return Status::OK();
}

void VocabularyCounter::Merge(const VocabularyCounter& other) {
  for (const auto& [value, count] : other.counts_) counts_[value] += count;
}

void VocabularyCounter::AddCount(std::string_view value, int64_t count) {
  auto it = counts_.find(value);
  if (it == counts_.end()) {
    counts_.emplace(std::string(value), count);
  } else {
    it->second += count;
  }
}

std::vector<std::pair<std::string_view, int64_t>> VocabularyCounter::SortedCounts() const {
  std::vector<std::pair<std::string_view, int64_t>> counts(counts_.begin(), counts_.end());
  std::sort(counts.begin(), counts.end());
  return counts;
}

Result<Vocabulary> VocabularyCounter::Finish(const VocabularyOptions& options) const {
  RETURN_NOT_OK(options.Validate());
  const int64_t top_k = options.top_k;
  const int64_t min_frequency = options.min_frequency;
  std::vector<std::pair<const std::string*, int64_t>> ranked;
  for (const auto& [value, count] : counts_) {
    if (count >= min_frequency) ranked.emplace_back(&value, count);
  }
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : *a.first < *b.first;
  });
  if (top_k >= 0 && static_cast<int64_t>(ranked.size()) > top_k) ranked.resize(static_cast<size_t>(top_k));
  std::vector<std::string> values;
  std::vector<int64_t> counts;
  for (const auto& [value, count] : ranked) {
    values.push_back(*value);
    counts.push_back(count);
  }
  return Vocabulary::Make(std::move(values), std::move(counts));
}

Result<std::shared_ptr<ArrayData>> ApplyVocabulary(const ArrayData& column, const Vocabulary& vocab,
                                                   const ApplyVocabularyOptions& options) {
  RETURN_NOT_OK(options.Validate());
  const int64_t num_oov_buckets = options.num_oov_buckets;
  const int64_t default_value = options.default_value;
  return internal::MapKeysToInt64(column, "apply_vocabulary", [&](std::string_view key) {
    const int64_t id = vocab.Lookup(key);
    if (id >= 0) return id;
    return num_oov_buckets > 0 ? vocab.size() + HashBucketOf(key, num_oov_buckets) : default_value;
  });
}

}  // namespace recflow::ops
