// Names of the save modes and parsing them from the command line.
#include "recflow/dataset/save_mode.h"

#include <array>
#include <string>

namespace recflow::dataset {

namespace {

constexpr std::array<SaveMode, 4> kAllModes = {SaveMode::kErrorIfExists, SaveMode::kOverwrite, SaveMode::kAppend,
                                               SaveMode::kOverwritePartitions};

}  // namespace

std::string_view SaveModeName(SaveMode mode) {
  switch (mode) {
    case SaveMode::kErrorIfExists:
      return "error";
    case SaveMode::kOverwrite:
      return "overwrite";
    case SaveMode::kAppend:
      return "append";
    case SaveMode::kOverwritePartitions:
      return "overwrite-partitions";
  }
  return "error";
}

Result<SaveMode> ParseSaveMode(std::string_view name) {
  for (SaveMode mode : kAllModes) {
    if (SaveModeName(mode) == name) return mode;
  }
  return Status::InvalidArgument("unknown save mode '" + std::string(name) +
                                 "' (expected error, overwrite, append or overwrite-partitions)");
}

}  // namespace recflow::dataset
