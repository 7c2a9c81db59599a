// Partition discovery: `key=value` directories above data files become columns typed by the schema file or Spark-style inference.
#pragma once

#include <string>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"
#include "recflow/dataset/partition_values.h"

namespace recflow::dataset {

/// What partition discovery found for a list of files.
struct DiscoveredPartitions {
  /// The partition columns in directory order (outermost first); no fields when the files are
  /// not partitioned. Inferred: a field is nullable exactly when some file's value is null.
  SchemaPtr schema;
  /// values[f][c]: file f's value of column c, in the order of the files given.
  std::vector<std::vector<PartitionValue>> values;
};

/// Discovers the partition columns of the data files under `base_dir` (as ExpandInputs lists
/// them), following Spark's rules:
/// - For each file, the directories between `base_dir` and the file (a value split over several
///   directories joined first, JoinContinuedDirectories) are walked from the file
///   upwards: directories without `=` directly above the file are skipped; then the contiguous
///   run of `key=value` directories (ParsePartitionDirectoryName) gives the file's partition
///   levels; the walk stops at the first directory without `=` above that run.
/// - If no file has partition levels, the schema is empty. Otherwise every file must have the
///   same keys in the same order below the same non-partition directories; a file that differs
///   (including an unpartitioned file among partitioned ones, which Spark would silently leave
///   out) is a DataError naming it and the first file. A key repeated within one path is a
///   DataError. Keys compare case-sensitively (Spark compares them case-insensitively by
///   default).
/// - Each column's type is inferred from all its non-null values: int64 when every value is an
///   optionally signed decimal integer that fits in int64, else float64 when every value is a
///   decimal number as Java's Double.parseDouble reads it (`1.5`, `-2e3`, `.5`, `NaN`,
///   `Infinity`; not hex floats, `d`/`f` suffixes or surrounding spaces), else utf8 holding the
///   unescaped directory text exactly. A column whose values are all null is utf8, as in Spark.
///   `__HIVE_DEFAULT_PARTITION__` is null and makes the column nullable; recflow's `%~` is the
///   empty string (utf8).
/// This step supports only int64, float64 and utf8: where Spark infers int this gives int64;
/// where Spark infers decimal (integers beyond int64) this gives utf8, keeping every digit;
/// dates and timestamps stay utf8; booleans are utf8 (`true`), as in Spark, which never infers
/// booleans for partitions. Types are inferred from unescaped values (Spark reads the escaped
/// text; the two differ only for escapes no writer produces, such as `%31`).
/// With `recorded` (the partition columns a dataset's schema file records, see
/// DatasetSchema::PartitionSchema), nothing is inferred: every file's partition columns must
/// be the recorded ones in order (DataError naming the file otherwise), each value is read as
/// its column's type (ParsePartitionValue; DataError naming the file and column), and the
/// schema is `recorded` (also without files: a committed dataset of zero rows has no partition
/// directories). A partition column written from strings `007`, `7` and `+7` thus
/// reads back as those strings, where inference would make them the int64 7.
/// InvalidArgument when a file is not under `base_dir` (compared lexically, after normalizing
/// `.` and `..`; the file system is not consulted).
Result<DiscoveredPartitions> DiscoverPartitions(const std::string& base_dir, const std::vector<std::string>& files,
                                                const SchemaPtr& recorded = nullptr);

/// DiscoverPartitions of the data files of dataset directory `dir` (as ExpandInputs lists
/// them) with the partition types `dir`'s schema file (kSchemaFileName, read from `fs`)
/// records; inferred when there is none. DataError naming the schema file when it is malformed.
/// Only reads.
Result<DiscoveredPartitions> DiscoverDatasetPartitions(const std::string& dir, const std::vector<std::string>& files,
                                                      FileSystem& fs = *LocalFileSystem::Instance());

}  // namespace recflow::dataset
