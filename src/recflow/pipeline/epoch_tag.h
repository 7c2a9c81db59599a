// Epoch tags: the part of a checkpointed write's file names that says which run generation and epoch committed them
// (`part-e0000003-…` in generation 0, `part-g0002e0000003-…` later), made and read back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace recflow::pipeline {

/// The run generation and epoch an epoch tag names.
struct EpochId {
  int64_t generation = 0;
  int64_t epoch = 0;
  bool operator==(const EpochId&) const = default;
};

/// The tag of epoch `id` (dataset::SinkOptions::epoch_tag): `e` and the epoch in at least 7 digits, after `g` and the
/// generation in at least 4 digits when the generation is not 0 (generation 0 keeps the names of runs that had none).
std::string EpochTag(const EpochId& id);

/// The epoch whose tag file name `name` carries after `prefix` and a '-' (and before the next '-'); nullopt when it
/// carries none, or one EpochTag does not make (`e12`, `g0000e0000001`).
std::optional<EpochId> ParseEpochTag(std::string_view name, std::string_view prefix);

}  // namespace recflow::pipeline
