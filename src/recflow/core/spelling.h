// ClosestName: the known name a misspelt word most likely meant ("convrt" → "convert"), for "did you mean" hints.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace recflow {

/// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`.
int EditDistance(std::string_view a, std::string_view b);

/// The name in `names` closest to `word` when it is close enough to be a slip of the keyboard
/// (at most one edit per three characters of `word`, and at least one allowed) or when `word`
/// is a prefix of exactly one name; "" otherwise, or when `word` is itself one of the names.
std::string ClosestName(std::string_view word, std::span<const std::string> names);

}  // namespace recflow
