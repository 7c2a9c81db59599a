// Epoch tags: formatted with fmt, read back digit run by digit run and accepted only as EpochTag writes them.
#include "recflow/pipeline/epoch_tag.h"

#include <fmt/core.h>

#include <charconv>

namespace recflow::pipeline {

namespace {

// The number of the digits `text` starts with, and the rest of `text` after them; nullopt when it starts with none or
// they overflow.
std::optional<std::pair<int64_t, std::string_view>> Number(std::string_view text) {
  if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
  int64_t value = 0;
  const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (parsed.ec != std::errc()) return std::nullopt;
  return std::make_pair(value, text.substr(static_cast<size_t>(parsed.ptr - text.data())));
}

}  // namespace

std::string EpochTag(const EpochId& id) {
  if (id.generation == 0) return fmt::format("e{:07d}", id.epoch);
  return fmt::format("g{:04d}e{:07d}", id.generation, id.epoch);
}

std::optional<EpochId> ParseEpochTag(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix) || name.substr(prefix.size()).substr(0, 1) != "-") return std::nullopt;
  const std::string_view text = name.substr(prefix.size() + 1);
  const std::string_view tag = text.substr(0, text.find('-'));
  if (tag.size() == text.size()) return std::nullopt;  // no '-' after it
  EpochId id;
  std::string_view rest = tag;
  if (rest.starts_with('g')) {
    auto generation = Number(rest.substr(1));
    if (!generation.has_value()) return std::nullopt;
    id.generation = generation->first;
    rest = generation->second;
  }
  if (!rest.starts_with('e')) return std::nullopt;
  auto epoch = Number(rest.substr(1));
  if (!epoch.has_value() || !epoch->second.empty()) return std::nullopt;
  id.epoch = epoch->first;
  if (EpochTag(id) != tag) return std::nullopt;  // another spelling: not a tag this code made
  return id;
}

}  // namespace recflow::pipeline
