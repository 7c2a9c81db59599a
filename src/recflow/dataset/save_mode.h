// SaveMode: what a job does to an output dataset directory that already holds data.
#pragma once

#include <cstdint>
#include <string_view>

#include "recflow/core/result.h"

namespace recflow::dataset {

/// How a job's files are combined with the dataset already committed in its output directory.
enum class SaveMode : uint8_t {
  kErrorIfExists,        ///< "error": refuse an output that already holds committed content
  kOverwrite,            ///< "overwrite": the new files replace the whole dataset
  kAppend,               ///< "append": the new files are added; a name collision is an error
  kOverwritePartitions,  ///< "overwrite-partitions": replace only the partition directories written
};

/// True for the save modes whose new dataset keeps entries of the old one (append,
/// overwrite-partitions).
constexpr bool KeepsEntries(SaveMode mode) { return mode == SaveMode::kAppend || mode == SaveMode::kOverwritePartitions; }

/// The command-line name of `mode`: "error", "overwrite", "append" or "overwrite-partitions".
std::string_view SaveModeName(SaveMode mode);

/// Parses a command-line name made by SaveModeName; InvalidArgument listing the valid names otherwise.
Result<SaveMode> ParseSaveMode(std::string_view name);

}  // namespace recflow::dataset
