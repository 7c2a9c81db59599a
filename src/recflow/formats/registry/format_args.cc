// FormatArgs: setting format words and reading them back as text, lists, booleans and integers.
#include "recflow/formats/registry/format_args.h"

#include <charconv>

namespace recflow::formats {

void FormatArgs::Set(const std::string& key, std::string value) { values_[key] = {std::move(value)}; }

void FormatArgs::SetList(const std::string& key, std::vector<std::string> values) { values_[key] = std::move(values); }

bool FormatArgs::Has(std::string_view key) const { return values_.find(key) != values_.end(); }

Result<std::string> FormatArgs::String(std::string_view key, std::string_view fallback) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return std::string(fallback);
  if (it->second.size() != 1) {
    return Status::InvalidArgument(std::string(key) + " takes one value, got " + std::to_string(it->second.size()));
  }
  return it->second.front();
}

std::vector<std::string> FormatArgs::List(std::string_view key) const {
  const auto it = values_.find(key);
  return it == values_.end() ? std::vector<std::string>() : it->second;
}

Result<bool> FormatArgs::Bool(std::string_view key, bool fallback) const {
  if (!Has(key)) return fallback;
  ASSIGN_OR_RETURN(const std::string text, String(key, ""));
  if (text == "true") return true;
  if (text == "false") return false;
  return Status::InvalidArgument(std::string(key) + " must be true or false, not '" + text + "'");
}

Result<int64_t> FormatArgs::Int(std::string_view key, int64_t fallback) const {
  if (!Has(key)) return fallback;
  ASSIGN_OR_RETURN(const std::string text, String(key, ""));
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    return Status::InvalidArgument(std::string(key) + " must be an integer, not '" + text + "'");
  }
  return value;
}

}  // namespace recflow::formats
