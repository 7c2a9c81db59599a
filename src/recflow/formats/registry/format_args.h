// FormatArgs: the format-specific words of a read or write (CLI flags, a pipeline step's keys) as texts each format parses.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::formats {

/// Format-specific options as the CLI flags and the YAML read/write steps carry them: a key
/// ("delimiter", "record_type", "decimals") and its texts. Each format's descriptor reads the
/// keys it knows and ignores the others, so a new format adds keys without editing a shared
/// options struct. A key that is absent takes the format's default.
class FormatArgs {
 public:
  /// Sets `key` to one text.
  void Set(const std::string& key, std::string value);
  /// Sets `key` to a list of texts.
  void SetList(const std::string& key, std::vector<std::string> values);
  /// True when `key` was set.
  bool Has(std::string_view key) const;
  /// The text of `key`, `fallback` when absent; InvalidArgument when it holds a list of other
  /// than one text.
  Result<std::string> String(std::string_view key, std::string_view fallback) const;
  /// The texts of `key`; empty when absent.
  std::vector<std::string> List(std::string_view key) const;
  /// `key` as true/false, `fallback` when absent; InvalidArgument naming the key otherwise.
  Result<bool> Bool(std::string_view key, bool fallback) const;
  /// `key` as a decimal integer, `fallback` when absent; InvalidArgument naming the key otherwise.
  Result<int64_t> Int(std::string_view key, int64_t fallback) const;
  /// Every key and its texts, in key order.
  const std::map<std::string, std::vector<std::string>, std::less<>>& values() const { return values_; }

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
};

}  // namespace recflow::formats
