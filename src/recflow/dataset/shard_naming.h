// Output shard file names: Beam's PREFIX-SSSSS-of-NNNNN.SUFFIX and Spark's part-SSSSS-<uuid>-c000.SUFFIX.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "recflow/core/result.h"

namespace recflow::dataset {

/// Which convention shard file names follow.
enum class ShardNaming : uint8_t {
  kBeam,   ///< `PREFIX-00003-of-00016.SUFFIX` (Beam's default shard name template)
  kSpark,  ///< `PREFIX-00003-<job uuid>-c000.SUFFIX` (Spark's file output committer names)
};

/// A fresh random (version 4, RFC 4122) UUID in lowercase canonical form
/// (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`), from std::random_device.
std::string NewRandomUuid();

/// True when `text` is a UUID in lowercase canonical 8-4-4-4-12 hex form (any version).
bool IsCanonicalUuid(std::string_view text);

/// Options that name the shards of one output job.
struct ShardNamer {
  /// Beam or Spark names.
  ShardNaming naming = ShardNaming::kBeam;
  /// The start of every name; Spark always writes "part".
  std::string prefix = "part";
  /// Appended verbatim after the shard fields, e.g. ".tfrecord.gz"; may be empty.
  std::string suffix;
  /// Number of shards of the job, >= 1.
  int64_t num_shards = 1;
  /// Spark naming: the job's UUID, shared by all its shards (as Spark's job id is).
  std::string job_uuid;

  /// Beam naming, prefix "part", no suffix, one shard, and a fresh job_uuid from NewRandomUuid().
  static ShardNamer Defaults();
  /// InvalidArgument unless: prefix is non-empty and neither prefix nor suffix holds `/` or NUL;
  /// num_shards >= 1; for Spark naming, job_uuid is canonical (IsCanonicalUuid).
  Status Validate() const;

  /// The file name of shard `index` (0 <= index < num_shards). Beam pads index and count with
  /// zeros to max(5, digits of num_shards), so every name of a job has the same length and
  /// names sort in shard order (Beam itself pads to 5 and lets larger numbers grow; the parser
  /// reads both). Spark pads the index to 5 digits (`%05d`) and ends with the file counter
  /// `-c000`. InvalidArgument for an invalid namer, an index out of range, or a name longer
  /// than 255 bytes.
  Result<std::string> Name(int64_t index) const;
};

/// A shard file name taken apart by ParseShardName.
struct ParsedShardName {
  ShardNaming naming = ShardNaming::kBeam;  ///< which convention matched
  std::string prefix;                       ///< everything before the shard fields
  int64_t index = 0;                        ///< the shard index
  std::optional<int64_t> num_shards;        ///< Beam only: the shard count
  std::string job_uuid;                     ///< Spark only: the job UUID
  int64_t file_counter = 0;                 ///< Spark only: the `cNNN` file counter
  std::string suffix;                       ///< the rest, empty or starting with '.'
};

/// Parses a file name (no directory) written in either convention: Beam's
/// `PREFIX-<index>-of-<count>[SUFFIX]` (both numbers at least 5 digits, index < count) is tried
/// first, then Spark's `PREFIX-<index>-<uuid>-c<counter>[SUFFIX]` (index at least 5 digits,
/// counter at least 3, lowercase or uppercase UUID). The prefix must be non-empty and the
/// suffix empty or start with '.'. When several positions match, the last shard fields in the
/// name win. DataError naming the file when it matches neither.
Result<ParsedShardName> ParseShardName(std::string_view file_name);

}  // namespace recflow::dataset
