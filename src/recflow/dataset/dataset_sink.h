// DatasetSink: the Sink that writes record batches as a sharded, Hive-partitioned dataset and commits it
// atomically.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/chunked_compression.h"
#include "recflow/core/result.h"
#include "recflow/dataset/commit.h"
#include "recflow/dataset/sink_options.h"
#include "recflow/formats/output_format.h"
#include "recflow/formats/sink.h"

namespace recflow::dataset {

namespace internal {
class StagedFiles;
}  // namespace internal

/// Rows of a batch that a batch-encoded format encodes together (see BatchEncoding).
struct SinkRun {
  std::shared_ptr<const RecordBatch> data;  ///< the data columns
  std::vector<int64_t> rows;                ///< indices into `data`
  std::shared_ptr<const BatchPlan> plan;    ///< from the format's PlanBatch for the run's file (may be null)
};

/// The encoded rows of one input batch, grouped by partition directory (made by Prepare).
struct SinkBatch {
  /// One partition's records.
  struct Group {
    std::string dir;          ///< relative partition directory, empty when not partitioned
    EncodedRecords records;   ///< the rows, encoded (batch formats: measured only), in input order
    SinkRun run;              ///< batch formats: the rows themselves
  };
  std::vector<Group> groups;  ///< in order of first appearance in the batch
};

/// Hex digits of the job id that Beam-named shards of an append carry (see SinkOptions::naming).
inline constexpr size_t kAppendTagLength = 8;

/// Chunks ready to compress and write (made by Merge and Drain).
struct SinkWork {
  /// Bytes for one file.
  struct Job {
    int file = 0;             ///< the sink's file id
    int64_t offset = -1;      ///< files written at offsets: where `raw` goes, fixed by Merge (else -1)
    std::vector<std::string_view> raw;  ///< uncompressed bytes, in pieces (compressed files: consumed by Compress)
    std::vector<std::shared_ptr<const void>> owners;  ///< what `raw` points into, kept until it is written
    std::vector<SinkRun> runs;  ///< batch formats: rows Compress encodes after `raw`
    std::vector<BatchBlock> blocks;  ///< batch formats: where Compress put each run, from the chunk's start
    std::vector<BatchBlock> dictionary_blocks;  ///< batch formats: where Compress put the runs' dictionaries, likewise
    CompressedChunk chunk;    ///< compressed files: what goes into the file in place of `raw`
    std::vector<EncodedBatch> batches;  ///< batch formats: the runs Compress encoded, written after `chunk`
  };
  std::vector<Job> jobs;
};

/// What a finished job wrote.
struct SinkStats {
  int64_t records = 0;        ///< records written
  int64_t raw_bytes = 0;      ///< uncompressed bytes of the records (framing included)
  int64_t written_bytes = 0;  ///< bytes of the data files on disk
  int64_t files = 0;          ///< data files
  int64_t partitions = 0;     ///< partition directories (0 when not partitioned)
  int64_t narrowed_doubles = 0;  ///< float64 values written as float32 that lost precision
};

/// How rows of one schema are laid out in a dataset: the partition columns, the data columns
/// and the format made for the data columns.
struct DatasetLayout {
  std::vector<int> partition_columns;  ///< indices in the input schema, in partition_by order
  std::vector<int> data_columns;       ///< the other indices, in input order
  SchemaPtr data_schema;               ///< the data columns' fields
  std::shared_ptr<const OutputFormat> format;
};

/// Checks, without touching the output, that rows of `input_schema` can be written as `options`
/// says (options valid, partition columns present, the format takes the data columns, whole-file
/// compression fits the format) and returns the layout. A pipeline's `write` checks this at
/// build time, so `recflow plan` catches what `run` would reject.
Result<DatasetLayout> MakeDatasetLayout(const SinkOptions& options, const SchemaPtr& input_schema);

/// Begins the commit job of a dataset written as `options` says (save mode, fsync, the schema
/// file of rows of `input_schema`) on `file_system`: what DatasetSink::Open does for its output,
/// and what the driver of a distributed job does before its tasks write (see TaskAttempt).
Result<std::unique_ptr<DatasetCommitter>> BeginDatasetJob(const SinkOptions& options, const Schema& input_schema,
                                                          std::shared_ptr<FileSystem> file_system);

/// A dataset being written, as a Sink: Open (removes what killed jobs left beside the output and
/// refuses per save mode, as DatasetCommitter::Begin does); Consume groups a batch by partition
/// and encodes it with the thread's encoder; Merge decides the file of every record and cuts full
/// chunks (runs of records of 64 KiB and more stay where they were encoded, the chunk points into
/// them; shorter ones are copied); Process compresses them (the chunks of one batch in parallel
/// too); Emit appends them to their files; Drain cuts the partial chunks at the end; Finish
/// finishes and names the files and completes the new dataset beside the output; Commit swaps it
/// in. Destroying an uncommitted sink aborts the job: nothing appears in the output.
///
/// Uncompressed record files on a file system with positional writes skip Emit: Merge fixes each
/// chunk's offset in its file as it cuts it, and Process writes the chunk there (pwritev(2), one
/// gathered write), so the copy into the page cache runs on the worker threads. Compressed files
/// (a chunk's size is known only once compressed), batch formats (likewise once encoded) and file
/// systems without positional writes are appended to in order by Emit.
///
/// Output is a function of the input rows and the options only: which file a record lands in
/// and the bytes of every file do not depend on threads or timing (see docs/formats/datasets.md,
/// "Sharding").
///
/// With SinkOptions::task set, the sink writes one attempt of one task of a distributed job: its
/// files, named from the task index, go into the attempt's own directory, and Commit() leaves
/// them there for the job's driver to adopt (DatasetCommitter::AdoptAttempt); Abort() and
/// destroying an uncommitted task remove the directory.
class DatasetSink final : public Sink {
 public:
  /// Begins a job on options.output of `file_system` (the run's: its files are written and
  /// committed through it, see CommitOptions::file_system) for rows of `input_schema` (partition
  /// columns resolved and checked; the format made for the remaining columns).
  static Result<std::unique_ptr<DatasetSink>> Open(SinkOptions options, SchemaPtr input_schema,
                                                   std::shared_ptr<FileSystem> file_system);
  ~DatasetSink() override;
  DatasetSink(const DatasetSink&) = delete;
  DatasetSink& operator=(const DatasetSink&) = delete;

  /// The columns written into the files (the input minus the partition columns).
  const SchemaPtr& data_schema() const { return data_schema_; }
  /// The file format.
  const OutputFormat& format() const { return *format_; }

  /// The thread's record encoder.
  Result<std::unique_ptr<SinkLocalState>> NewLocalState() const override;
  /// Groups `batch` (input schema) by partition and encodes each group with the thread's
  /// encoder. Errors name the field and the row within `batch`.
  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState* local,
                                                const std::shared_ptr<RecordBatch>& batch) const override;
  /// Decides the file of every record of the batch and cuts the chunks that are full.
  Status Merge(SinkPartial* partial) override;
  /// Compresses the partial's chunks (uncompressed record files: writes them at their offsets), in parallel.
  Status Process(SinkPartial* partial) const override;
  /// Appends the partial's chunks to their files.
  Status Emit(SinkPartial* partial) override;
  /// The partial chunks of every open file.
  Result<std::unique_ptr<SinkPartial>> Drain() override;
  /// Finishes every file (creating empty shards where the sharding promises them), gives them
  /// their final names and completes the new dataset beside the output without touching it
  /// (DatasetCommitter::Prepare: from here until Commit or Abort, this holds the output's
  /// commit lock). Done once; Commit() calls it when it was not called.
  Status Finish() override;
  /// Finish(), then swaps the new dataset in (see DatasetCommitter::Commit).
  Status Commit() override;
  /// Abandons the job: its staging directory is removed, the output stays as it was.
  Status Abort() override;

  /// Counters (final after Commit).
  const SinkStats& stats() const { return stats_; }
  /// The committer's job id (a task's: its driver's).
  const std::string& job_id() const;
  /// The output directory as given (DatasetCommitter::output).
  const std::string& output() const;
  /// The output directory, absolute, symlinks resolved (DatasetCommitter::resolved_output); a
  /// task's: its attempt directory.
  const std::string& resolved_output() const;

 private:
  struct Target;
  struct Partition;
  struct EncodedBytes;
  DatasetSink(SinkOptions options, SchemaPtr data_schema, std::vector<int> partition_columns,
              std::vector<int> data_columns, std::shared_ptr<const OutputFormat> format,
              std::unique_ptr<DatasetCommitter> committer, std::shared_ptr<FileSystem> file_system);
  Result<Partition*> PartitionFor(const std::string& dir);
  // Where the file `relative` to the dataset is written: in the committer's staging tree, or in
  // the task attempt's directory (its parents created).
  Result<std::string> StagedPath(const std::string& relative);
  Result<Target*> TargetFor(Partition* partition, int64_t shard);
  Status AppendRecords(Target* target, const SinkBatch::Group& group, const std::shared_ptr<EncodedBytes>& bytes,
                       size_t begin, size_t end, SinkWork* out);
  // Adds `piece` to the target's pending chunk: long pieces point into `owner`, short ones (and all
  // when `owner` is null) are copied.
  void AppendPiece(Target* target, std::string_view piece, const std::shared_ptr<EncodedBytes>& owner);
  void TakeChunk(Target* target, SinkWork* out);
  void LimitPending(SinkWork* out);
  Result<std::string> FinalName(const Partition& partition, int64_t shard, int64_t num_shards) const;
  // Groups and encodes `batch` with `encoder` (Consume).
  Status Prepare(RecordEncoder* encoder, const RecordBatch& batch, SinkBatch* out) const;
  // Assigns the records of `batch` to files and moves full chunks into `*out` (Merge).
  Status Assign(SinkBatch batch, SinkWork* out);
  // Compresses or encodes one job, or writes it at its offset (Process).
  Status ProcessJob(SinkWork::Job* job) const;
  // Appends the jobs' chunks to their files (Emit).
  Status Write(SinkWork work);
  /// Finishes every file and gives it its final name (the first half of Finish).
  Status FinishFiles();

  SinkOptions options_;
  SchemaPtr data_schema_;
  std::vector<int> partition_columns_;
  std::vector<int> data_columns_;
  std::shared_ptr<const OutputFormat> format_;
  std::unique_ptr<DatasetCommitter> committer_;  // null for a task attempt
  std::shared_ptr<FileSystem> file_system_;
  std::unique_ptr<internal::StagedFiles> files_;
  std::string header_;
  std::string suffix_;
  std::map<std::string, std::unique_ptr<Partition>> partitions_;
  std::vector<std::unique_ptr<Target>> targets_;  // indexed by file id
  int64_t pending_bytes_ = 0;
  SinkStats stats_;
  bool prepared_ = false;
  bool finished_ = false;
};

}  // namespace recflow::dataset
