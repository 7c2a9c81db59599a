// The dataset factory's discovery: the files of command-line inputs, their Hive partitions and the format of each
// (content-sniffed or --from, through the format registry), once per command; dataset_source.h opens them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"
#include "recflow/dataset/partition_discovery.h"
#include "recflow/formats/registry/format_descriptor.h"

namespace recflow::dataset {

/// One input file: its path, its Hive partition values and what detection found.
struct ResolvedInput {
  std::string path;
  std::vector<PartitionValue> partition;
  formats::DetectedFile detected;
};

/// Every input of a command, expanded and detected once, for OpenInputs and the commands that
/// report on them.
struct ResolvedInputs {
  std::vector<ResolvedInput> files;
  /// The partition columns of the directory arguments (no fields: none).
  SchemaPtr partition_schema;
  /// The format every file is read as when --from named it; nullptr when each was detected.
  const formats::FormatDescriptor* forced = nullptr;
  /// When the inputs hold no rows — no data file (a committed partitioned dataset of zero rows)
  /// or only empty regular files (an unpartitioned one, uncompressed) — the columns the first
  /// directory argument's schema file records (data columns, then partition columns), which
  /// OpenInputs reads as zero rows; nullptr otherwise.
  SchemaPtr empty_dataset_schema;
  /// The arguments joined with ", ": how messages name the inputs as a whole.
  std::string description;
};

/// Expands `args` on `fs` (ExpandInputs: files, directories walked recursively skipping `_`/`.` names,
/// globs; "-" = stdin), discovers the Hive `key=value/` partitions under each directory argument
/// (DiscoverDatasetPartitions: the types the dataset's schema file records, else inferred as
/// int64, float64 or utf8; null for `__HIVE_DEFAULT_PARTITION__`) and detects each file
/// (formats::BuiltinFormats().Detect with `forced`, on `fs`). Every directory argument must have the same partition
/// columns, partitioned and unpartitioned inputs cannot be mixed (DataError), and all files must
/// have one format (InvalidArgument naming two of them: "pass --from"). Arguments that hold no
/// data file and no schema file are a DataError (nothing says what the columns are).
Result<ResolvedInputs> DetectInputs(const std::vector<std::string>& args, const formats::FormatDescriptor* forced,
                                    FileSystem& fs = *LocalFileSystem::Instance());

}  // namespace recflow::dataset
