// SinkOptions: where and how a DatasetSink writes — format, compression, sharding, partitioning, save mode.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/compression.h"
#include "recflow/core/result.h"
#include "recflow/dataset/save_mode.h"
#include "recflow/dataset/shard_naming.h"
#include "recflow/formats/output_format.h"

namespace recflow::dataset {

/// How records are spread over the files of each partition.
struct Sharding {
  /// Which rule applies.
  enum class Kind : uint8_t {
    kCount,       ///< exactly `count` files per partition, records spread evenly (Beam's num_shards)
    kMaxRecords,  ///< a new file after every `limit` records (Spark's maxRecordsPerFile)
    kMaxBytes,    ///< a new file before the uncompressed record bytes would exceed `limit`
  };
  Kind kind = Kind::kCount;
  /// kCount: files per partition (>= 1). kMaxRecords / kMaxBytes: the limit (>= 1).
  int64_t value = 1;
};

/// One attempt of one task of a distributed job (recflow.dask): the sink writes the task's files
/// into the attempt's own directory and commits nothing; the job's driver adopts the directory of
/// the first attempt of each task that finished (DatasetCommitter::AdoptAttempt) and commits once.
struct TaskAttempt {
  /// The attempt's directory, created by the sink (it must not exist, so no two attempts share
  /// one): directly under the driver's DatasetCommitter::AttemptsDir().
  std::string dir;
  /// The driver's job id (DatasetCommitter::job_id): Spark names and Beam append tags carry it.
  std::string job_id;
  /// The task's index: its files are the shards index * S ... index * S + S - 1 of count * S in
  /// every partition (S: Sharding::value), so a retry writes the same names.
  int64_t index = 0;
  /// Tasks in the job; 0: the sink is no task and commits its output itself.
  int64_t count = 0;

  /// True when the sink writes one task's files (count > 0).
  bool active() const { return count > 0; }
};

/// Makes the output format for the schema of the data columns (the input minus partition columns).
using OutputFormatFactory = std::function<Result<std::shared_ptr<const OutputFormat>>(SchemaPtr data_schema)>;

/// Everything a DatasetSink needs to know.
struct SinkOptions {
  /// The dataset directory (created when missing).
  std::string output;
  /// Builds the file format once the data schema is known.
  OutputFormatFactory format;
  /// Whole-file compression (one gzip member / zlib stream per file, compressed in parallel chunks).
  Compression compression = Compression::kNone;
  /// zlib level 0..9, or -1 for the default.
  int level = -1;
  /// Files per partition.
  Sharding sharding;
  /// Beam or Spark file names, and their prefix. Beam names of an append carry the first
  /// kAppendTagLength hex digits of the job id after the prefix (`part-1f5b4d1a-00000-of-00004`)
  /// so that they never take the name of a shard already there.
  ShardNaming naming = ShardNaming::kBeam;
  /// Beam names: a tag that takes the job id's place after the prefix, in every mode
  /// (`part-e0000003-00000-of-00001`): a checkpointed unbounded run names each epoch's files so,
  /// and a re-made epoch gets the same names. Empty: the job id's, in append mode only.
  std::string epoch_tag;
  /// The start of every file name.
  std::string prefix = "part";
  /// Columns whose values become `key=value/` directories (outermost first); they are dropped
  /// from the records, as Spark does.
  std::vector<std::string> partition_by;
  /// How the job's files combine with a dataset already in `output`.
  SaveMode mode = SaveMode::kErrorIfExists;
  /// fsync at commit so the commit survives power loss (see CommitOptions::sync).
  bool sync = true;
  /// Uncompressed bytes gathered per file before they are compressed and written as one chunk.
  int64_t chunk_bytes = int64_t{1} << 20;
  /// Cap on the bytes waiting in all files' chunks; above it the fullest are flushed early.
  int64_t max_pending_bytes = int64_t{64} << 20;
  /// Files kept open at once; others are closed and reopened for appending when needed (a chunk
  /// being written at its offset by a worker thread holds its file open until it is written).
  int max_open_files = 256;
  /// Set when the sink writes one attempt of one task of a distributed job (see TaskAttempt);
  /// the sharding must then be a shard count.
  TaskAttempt task;
  /// Test hook passed to the committer (CommitOptions::after_step).
  std::function<void(std::string_view step)> after_commit_step;
  /// No output and no format (the caller sets both); one shard, Beam names, mode error.
  static SinkOptions Defaults() { return {}; }
  /// InvalidArgument for an empty output, a missing format, bad sizes, a bad prefix, a task
  /// without a directory, a canonical job id, an index in range or a shard count.
  Status Validate() const;
};

}  // namespace recflow::dataset
