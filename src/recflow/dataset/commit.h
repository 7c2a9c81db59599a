// DatasetCommitter: build a job's complete dataset in a hidden sibling of OUTPUT and swap it in with one rename.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/filesystem.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"
#include "recflow/dataset/dataset_schema.h"
#include "recflow/dataset/save_mode.h"

namespace recflow::dataset {

namespace internal {
class JobLock;
class OutputLock;
struct OutputPaths;
}  // namespace internal

class StagingRegistration;

/// The directory earlier recflow versions staged jobs in, inside the output. Readers skip it
/// (its name starts with `_`); writers ignore it (an output holding only it counts as empty)
/// and do not carry it into the new dataset, unless it holds the journal of an unfinished
/// commit (kLegacyJournalName): then every save mode but overwrite refuses the output.
inline constexpr std::string_view kTemporaryDirName = "_temporary";

/// The journal of a commit of an earlier recflow version, in `_temporary/<job>/`: while it is
/// there, that commit was not finished and the output may hold a mix of old and new files.
inline constexpr std::string_view kLegacyJournalName = "JOURNAL";

/// The empty marker file every commit puts at the top of the new dataset, as Spark and Hadoop do.
inline constexpr std::string_view kSuccessFileName = "_SUCCESS";

/// The directory in a job's staging tree where the attempts of a distributed job's tasks write,
/// one directory each (see TaskAttempt in sink_options.h); Prepare() moves it, with every
/// attempt that was not adopted, out of the staging tree in one rename, and the job's end removes it.
inline constexpr std::string_view kAttemptsDirName = "_attempts";

/// Options of one commit job.
struct CommitOptions {
  /// The job id naming its staging tree: a canonical UUID, or empty for a fresh one from
  /// NewRandomUuid(). Pass the ShardNamer's job_uuid to share it with Spark-style shard names.
  std::string job_id;
  /// fsync the job's files, the staging directories, and after the swap the parent and the
  /// parents of the directories the job created for a new output path, so that
  /// the commit also survives power loss. Without it, it still survives a crash or kill.
  bool sync = true;
  /// The schema of the rows, written to the new dataset's schema file (kSchemaFileName). With
  /// append and overwrite-partitions it must match the schema file of the dataset already
  /// there (DatasetSchema::Merge); a dataset there without one that keeps entries gets none
  /// (its files' types are unknown). Without a schema here, no schema file is written, and
  /// append and overwrite-partitions keep the existing one like any other file.
  std::optional<DatasetSchema> schema;
  /// Test hook: called after each step of Prepare() and Commit() (output locked, kept entries
  /// linked, staging synced, swapped, old dataset removed, ...) with its description; may be empty.
  std::function<void(std::string_view step)> after_step;
  /// The file system the output is on (every call of the commit goes through it). It must
  /// rename atomically, have directories and locks, and, for the save modes that keep entries
  /// (append, overwrite-partitions), hard links: Begin() refuses any other (see "Commit on an
  /// object store" in docs/formats/datasets.md). Without RENAME_EXCHANGE (capabilities().exchange
  /// false, or TryExchange answering false) the swap takes two renames (see Commit()).
  std::shared_ptr<FileSystem> file_system = LocalFileSystem::Instance();

  /// A fresh job id, sync on, no schema, no hook, the local file system.
  static CommitOptions Defaults();
  /// InvalidArgument when job_id is neither empty nor a canonical UUID, or file_system is null.
  Status Validate() const;
};

/// InvalidArgument unless `relative_path` is a path a job may stage: non-empty, relative, made of
/// `/`-separated components that are non-empty, at most 255 bytes, hold no control characters,
/// and do not start with `.` or `_` (so `..` and `.` are refused, and nothing hides from readers
/// or collides with `_SUCCESS` or the schema file).
Status ValidateStagedPath(std::string_view relative_path);

/// `root`/`relative_path` for a file about to be written below `root`: the path checked by
/// ValidateStagedPath and its parent directories created below `root` on `fs`. What a job's
/// staging directory and a task attempt's directory both hand out.
Result<std::string> PrepareStagedFile(FileSystem& fs, const std::string& root, const std::string& relative_path);

/// The commit protocol of one job writing a dataset directory (see "Commit protocol" in
/// docs/formats/datasets.md). The job builds the complete new dataset in a staging tree beside
/// the output (`.<name>.recflow-<job id>` in the output's parent, hidden from every reader),
/// and Commit() swaps it with the output in one renameat2(RENAME_EXCHANGE): at every instant,
/// the output is the complete old dataset or the complete new one, for any reader, even across
/// a crash. Readers never need to recover anything. Not thread-safe; one committer per job.
class DatasetCommitter {
 public:
  /// Starts a job on directory `output` (not created: the commit creates it; missing parents
  /// are, and removed again when the job fails). Refuses a file system that cannot commit
  /// safely (InvalidArgument, see CommitOptions::file_system), an output that is not a directory
  /// (AlreadyExists) or is a mount point (InvalidArgument: it cannot be swapped), under
  /// SaveMode::kErrorIfExists one holding committed content (AlreadyExists), and, with a
  /// schema in `options` and a save mode that keeps data, rows that do not match the schema
  /// file there (DataError); in any save mode but overwrite, an output holding the journal of
  /// a commit an earlier recflow version did not finish (DataError naming the journal). Removes what killed jobs left beside the output, then creates and
  /// locks the job's lock file and its staging tree.
  static Result<std::unique_ptr<DatasetCommitter>> Begin(const std::string& output, SaveMode mode,
                                                         CommitOptions options = CommitOptions::Defaults());
  /// Aborts the job unless it was committed or aborted.
  ~DatasetCommitter();
  DatasetCommitter(const DatasetCommitter&) = delete;
  DatasetCommitter& operator=(const DatasetCommitter&) = delete;

  /// The staging path of data file `relative_path` (checked by ValidateStagedPath), its parent
  /// directories created. Writers need not fsync: Prepare() does.
  Result<std::string> NewFilePath(const std::string& relative_path);

  /// The directory the task attempts of a distributed job write in (`_attempts` in the staging
  /// tree; created on the first call): on storage every worker shares with this driver.
  Result<std::string> AttemptsDir();

  /// Adopts the files of one finished task attempt: `attempt_dir` (a directory directly under
  /// AttemptsDir()) holds them at the paths they take in the dataset (each checked by
  /// ValidateStagedPath), and each is renamed there without replacing anything. Adopt the first
  /// attempt of each task that finished, once: task files are named from the task index, so a
  /// second attempt of an adopted task collides (AlreadyExists) and nothing of it is adopted
  /// past the collision. Attempts never adopted go with AttemptsDir() at Prepare().
  Status AdoptAttempt(const std::string& attempt_dir);

  /// Completes the new dataset without touching the output: removes AttemptsDir(), waits for the output's commit lock
  /// (held until Commit() or Abort(), so that commits to one output never interleave), checks
  /// the save mode again (error: still empty; the schema file still matching), hard-links what
  /// the save mode keeps of the current dataset into the staging tree (refusing name
  /// collisions with AlreadyExists), writes `_SUCCESS` and the schema file, and fsyncs (when
  /// options.sync). Several outputs of one run are prepared first and swapped after, in the
  /// order of their paths, so that a refusal leaves every output as it was. After a failure the
  /// job can only be aborted: Prepare(), Commit() and NewFilePath() then return InvalidArgument.
  Status Prepare();

  /// Prepare() unless done, then swaps the staging tree with the output: RENAME_EXCHANGE (or
  /// RENAME_NOREPLACE when the output does not exist yet), or, where the file system lacks
  /// RENAME_EXCHANGE, two renames (the output aside, the staging tree in; between them the
  /// output does not exist, and a crash there is rolled back by the next writer). Then releases
  /// the commit lock and deletes the old dataset. When the staging tree cannot be renamed in and
  /// the old dataset cannot be put back either, nothing is removed: the error (IOError) names
  /// where the old dataset and the new one are, and says to move the old one back.
  Status Commit();

  /// Removes the job's staging tree and lock files; the output stays as it was.
  Status Abort();

  /// The job's id (a UUID).
  const std::string& job_id() const { return job_id_; }
  /// The output directory, as given.
  const std::string& output() const { return output_; }
  /// The output directory, absolute, symlinks resolved: where the commit happens.
  const std::string& resolved_output() const;
  /// The save mode.
  SaveMode mode() const { return mode_; }
  /// The job's staging tree (the new dataset until the swap).
  std::string staging_dir() const;

 private:
  DatasetCommitter(std::string output, SaveMode mode, CommitOptions options, std::string job_id);
  /// Begin() after the object exists (so that its destructor cleans up a failed start).
  Status Start();
  /// Prepare() proper, run once.
  Status PrepareOnce();
  /// Writes the schema file of the new dataset (see CommitOptions::schema).
  Status WriteSchema(bool output_exists, int64_t kept);
  /// The swap proper (see Commit()); puts in `keep` the paths that hold data when it fails
  /// without having restored the output.
  Status Swap(std::vector<std::string>& keep);
  /// The file system the output is on.
  FileSystem& fs() const { return *options_.file_system; }
  /// Calls the options' after_step hook, if any.
  void AfterStep(std::string_view step) const;
  /// Removes everything of the job but the output; the job is over.
  Status Finish();

  std::string output_;
  SaveMode mode_;
  CommitOptions options_;
  std::string job_id_;
  std::unique_ptr<internal::OutputPaths> paths_;
  std::unique_ptr<StagingRegistration> registration_;
  std::unique_ptr<internal::JobLock> job_lock_;
  std::unique_ptr<internal::OutputLock> output_lock_;
  std::vector<std::string> created_parents_;  // deepest first
  bool prepared_ = false;
  bool failed_ = false;  // Prepare() failed: only Abort() is left
  bool swapped_ = false;
  bool kept_after_failed_swap_ = false;  // the staging tree and the aside one hold data: never removed
  bool finished_ = false;
};

}  // namespace recflow::dataset
