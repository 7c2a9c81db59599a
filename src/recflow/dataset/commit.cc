// The job side of the commit protocol: staging beside the output, completing the new tree, the swap, abort.
#include "recflow/dataset/commit.h"

#include <algorithm>

#include "recflow/dataset/commit_locks_internal.h"
#include "recflow/dataset/commit_plan_internal.h"
#include "recflow/dataset/partition_path.h"
#include "recflow/dataset/shard_naming.h"
#include "recflow/dataset/stale_jobs_internal.h"
#include "recflow/dataset/staging_registry.h"

namespace recflow::dataset {

namespace {

/// `output` without trailing slashes (but "/" stays "/").
std::string TrimTrailingSlashes(std::string output) {
  while (output.size() > 1 && output.back() == '/') output.pop_back();
  return output;
}

}  // namespace

CommitOptions CommitOptions::Defaults() { return CommitOptions(); }

Status CommitOptions::Validate() const {
  if (!job_id.empty() && !IsCanonicalUuid(job_id)) {
    return Status::InvalidArgument("commit job id '" + job_id + "' is not a canonical lowercase UUID");
  }
  if (file_system == nullptr) return Status::InvalidArgument("commit options without a file system");
  return Status::OK();
}

namespace {

/// InvalidArgument when `fs` lacks what the directory-swap commit of `mode` needs.
Status RequireCommitCapabilities(const FileSystem& fs, const std::string& output, SaveMode mode) {
  const FileSystemCapabilities caps = fs.capabilities();
  std::string missing;
  if (!caps.atomic_rename) missing += ", an atomic no-replace rename";
  if (!caps.directories) missing += ", directories";
  if (!caps.locks) missing += ", locks";
  if (KeepsEntries(mode) && !caps.hard_links) missing += ", hard links (to keep the files save mode " +
                                                          std::string(SaveModeName(mode)) + " keeps)";
  if (missing.empty()) return Status::OK();
  return Status::InvalidArgument("cannot commit '" + output + "' safely: the " + std::string(fs.type_name()) +
                                 " file system lacks " + missing.substr(2) +
                                 ", which recflow's directory-swap commit needs (a manifest-based commit for such " +
                                 "stores is designed in docs/formats/datasets.md, not implemented yet)");
}

}  // namespace

Status ValidateStagedPath(std::string_view relative_path) {
  const auto invalid = [&](const std::string& why) {
    return Status::InvalidArgument("invalid output file path '" + std::string(relative_path) + "': " + why);
  };
  if (relative_path.empty()) return invalid("empty");
  if (relative_path.front() == '/') return invalid("absolute paths are not allowed");
  size_t begin = 0;
  while (begin <= relative_path.size()) {
    const size_t end = std::min(relative_path.find('/', begin), relative_path.size());
    const std::string_view component = relative_path.substr(begin, end - begin);
    if (component.empty()) return invalid("empty path component");
    if (component.front() == '.') return invalid("components must not start with '.' (no '.' or '..')");
    if (component.front() == '_') return invalid("components must not start with '_' (reserved, hidden from readers)");
    if (component.size() > kMaxPathComponentBytes) return invalid("a component is longer than 255 bytes");
    for (unsigned char c : component) {
      if (c < 0x20 || c == 0x7f) return invalid("control characters are not allowed");
    }
    begin = end + 1;
  }
  return Status::OK();
}

Result<std::string> PrepareStagedFile(FileSystem& fs, const std::string& root, const std::string& relative_path) {
  RETURN_NOT_OK(ValidateStagedPath(relative_path));
  const size_t slash = relative_path.rfind('/');
  if (slash != std::string::npos) {
    RETURN_NOT_OK(fs.CreateDirectoriesBelow(root, std::string_view(relative_path).substr(0, slash)));
  }
  return root + "/" + relative_path;
}

DatasetCommitter::DatasetCommitter(std::string output, SaveMode mode, CommitOptions options, std::string job_id)
    : output_(std::move(output)), mode_(mode), options_(std::move(options)), job_id_(std::move(job_id)) {}

DatasetCommitter::~DatasetCommitter() {
  if (!finished_) (void)Abort();
}

Result<std::unique_ptr<DatasetCommitter>> DatasetCommitter::Begin(const std::string& output, SaveMode mode,
                                                                  CommitOptions options) {
  RETURN_NOT_OK(options.Validate());
  RETURN_NOT_OK(RequireCommitCapabilities(*options.file_system, output, mode));
  ASSIGN_OR_RETURN(internal::OutputPaths paths, internal::OutputPaths::For(*options.file_system, output));
  std::string job_id = options.job_id.empty() ? NewRandomUuid() : options.job_id;
  std::unique_ptr<DatasetCommitter> job(
      new DatasetCommitter(TrimTrailingSlashes(output), mode, std::move(options), std::move(job_id)));
  job->paths_ = std::make_unique<internal::OutputPaths>(std::move(paths));
  RETURN_NOT_OK(job->Start());
  return job;
}

Status DatasetCommitter::Start() {
  const std::string& target = paths_->output;
  ASSIGN_OR_RETURN(const FileInfo info, fs().GetFileInfo(target));
  if (info.exists()) {
    if (!info.is_directory()) {
      return Status::AlreadyExists("output '" + output_ + "' exists and is not a directory");
    }
    ASSIGN_OR_RETURN(bool mount_point, fs().IsMountPoint(target));
    if (mount_point) {
      return Status::InvalidArgument("output '" + output_ + "' is a mount point: recflow commits by swapping the " +
                                     "output with a directory beside it, which cannot cross file systems; write " +
                                     "to a directory inside it");
    }
    RETURN_NOT_OK(internal::RefuseUnfinishedLegacyCommit(fs(), target, output_, mode_));
    if (mode_ == SaveMode::kErrorIfExists) RETURN_NOT_OK(internal::RequireNoCommittedContent(fs(), target, output_));
    if (options_.schema && KeepsEntries(mode_)) {
      ASSIGN_OR_RETURN(std::optional<DatasetSchema> existing, ReadDatasetSchema(fs(), target));
      if (existing) RETURN_NOT_OK(existing->Merge(*options_.schema, output_).status());
    }
  }
  registration_ = std::make_unique<StagingRegistration>(output_, options_.file_system);
  ASSIGN_OR_RETURN(created_parents_, fs().CreateDirectories(paths_->parent));
  for (const std::string& dir : created_parents_) registration_->AddCreatedDirectory(dir);
  RETURN_NOT_OK(internal::RemoveStaleJobs(fs(), *paths_));
  // The lock exists before anything else of the job and goes last, so names of a job without
  // a lock file never belong to a live job.
  const std::vector<std::string> job_paths = {staging_dir(), paths_->Aside(job_id_), paths_->DiscardedAttempts(job_id_),
                                              paths_->JobLockPath(job_id_)};
  for (const std::string& path : job_paths) registration_->AddPath(path);
  Result<internal::JobLock> lock = internal::JobLock::Create(fs(), paths_->JobLockPath(job_id_));
  if (!lock.ok()) {  // the names are not this job's (a job id given twice): leave them
    for (const std::string& path : job_paths) registration_->RemovePath(path);
    return lock.status();
  }
  job_lock_ = std::make_unique<internal::JobLock>(std::move(lock).ValueUnsafe());
  return fs().CreateDirectory(staging_dir());
}

std::string DatasetCommitter::staging_dir() const { return paths_->Staging(job_id_); }

const std::string& DatasetCommitter::resolved_output() const { return paths_->output; }

void DatasetCommitter::AfterStep(std::string_view step) const {
  if (options_.after_step) options_.after_step(step);
}

Result<std::string> DatasetCommitter::NewFilePath(const std::string& relative_path) {
  if (finished_ || prepared_ || failed_) return Status::InvalidArgument("job " + job_id_ + " is already committing or over");
  return PrepareStagedFile(fs(), staging_dir(), relative_path);
}

Result<std::string> DatasetCommitter::AttemptsDir() {
  if (finished_ || prepared_ || failed_) return Status::InvalidArgument("job " + job_id_ + " is already committing or over");
  const std::string dir = staging_dir() + "/" + std::string(kAttemptsDirName);
  RETURN_NOT_OK(fs().CreateDirectoriesBelow(staging_dir(), kAttemptsDirName));
  return dir;
}

Status DatasetCommitter::AdoptAttempt(const std::string& attempt_dir) {
  ASSIGN_OR_RETURN(const std::string attempts, AttemptsDir());
  const std::string_view name = std::string_view(attempt_dir).substr(std::min(attempt_dir.size(), attempts.size() + 1));
  if (attempt_dir.compare(0, attempts.size() + 1, attempts + "/") != 0 || name.empty() ||
      name.find('/') != std::string_view::npos) {
    return Status::InvalidArgument("'" + attempt_dir + "' is no task attempt of job " + job_id_ + " (not a directory of " +
                                   attempts + ")");
  }
  ASSIGN_OR_RETURN(std::vector<std::string> files, fs().ListFilesRecursively(attempt_dir));
  for (const std::string& relative : files) {
    ASSIGN_OR_RETURN(const std::string path, NewFilePath(relative));
    RETURN_NOT_OK(fs().Move(attempt_dir + "/" + relative, path, MoveMode::kNoReplace));
  }
  return Status::OK();
}

Status DatasetCommitter::Prepare() {
  if (finished_) return Status::InvalidArgument("job " + job_id_ + " is already committed or aborted");
  if (prepared_) return Status::OK();
  if (failed_) return Status::InvalidArgument("job " + job_id_ + " failed to prepare its commit: it can only be aborted");
  const Status st = PrepareOnce();
  failed_ = !st.ok();
  return st;
}

Status DatasetCommitter::PrepareOnce() {
  ASSIGN_OR_RETURN(internal::OutputLock lock, internal::OutputLock::Acquire(fs(), paths_->OutputLockPath()));
  output_lock_ = std::make_unique<internal::OutputLock>(std::move(lock));
  registration_->AddPath(output_lock_->path());
  AfterStep("output locked");
  const std::string& target = paths_->output;
  const std::string staging = staging_dir();
  // Moved out in one rename, removed at Finish: an attempt still writing there cannot fail the commit (a tree
  // removed in place while a lost worker's attempt adds to it fails with ENOTEMPTY) nor reach the output.
  const std::string attempts = staging + "/" + std::string(kAttemptsDirName);
  ASSIGN_OR_RETURN(const bool attempts_there, fs().IsDirectory(attempts));
  if (attempts_there) RETURN_NOT_OK(fs().Move(attempts, paths_->DiscardedAttempts(job_id_), MoveMode::kNoReplace));
  ASSIGN_OR_RETURN(std::vector<std::string> staged, fs().ListFilesRecursively(staging));
  ASSIGN_OR_RETURN(const FileInfo info, fs().GetFileInfo(target));
  const bool exists = info.exists();
  if (exists && !info.is_directory()) {
    return Status::AlreadyExists("output '" + output_ + "' exists and is not a directory");
  }
  if (exists) RETURN_NOT_OK(internal::RefuseUnfinishedLegacyCommit(fs(), target, output_, mode_));
  if (mode_ == SaveMode::kErrorIfExists) RETURN_NOT_OK(internal::RequireNoCommittedContent(fs(), target, output_));
  std::vector<std::string> replaced_top_level = {std::string(kSuccessFileName)};
  if (options_.schema) replaced_top_level.emplace_back(kSchemaFileName);
  int64_t kept = 0;
  if (exists) {
    ASSIGN_OR_RETURN(kept, internal::LinkKeptEntries(fs(), target, staging, mode_, staged, replaced_top_level));
  }
  AfterStep("kept entries linked");
  RETURN_NOT_OK(WriteSchema(exists, kept));
  RETURN_NOT_OK(fs().WriteSmallFile(staging + "/" + std::string(kSuccessFileName), "", options_.sync));
  if (exists) RETURN_NOT_OK(fs().SetPermissions(staging, info.permissions));
  if (options_.sync) {
    for (const std::string& file : staged) RETURN_NOT_OK(fs().Sync(staging + "/" + file));
    ASSIGN_OR_RETURN(std::vector<std::string> dirs, fs().ListDirectoriesRecursively(staging));
    for (const std::string& dir : dirs) RETURN_NOT_OK(fs().Sync(dir));
  }
  AfterStep("staging synced");
  prepared_ = true;
  return Status::OK();
}

Status DatasetCommitter::WriteSchema(bool output_exists, int64_t kept) {
  if (!options_.schema) return Status::OK();
  DatasetSchema schema = *options_.schema;
  std::optional<DatasetSchema> existing;
  if (output_exists && KeepsEntries(mode_)) {
    ASSIGN_OR_RETURN(existing, ReadDatasetSchema(fs(), paths_->output));
  }
  if (existing) {
    ASSIGN_OR_RETURN(schema, existing->Merge(*options_.schema, output_));
  } else if (kept > 0) {
    return Status::OK();  // kept files of a dataset without a schema file: their types are unknown
  }
  return fs().WriteSmallFile(staging_dir() + "/" + std::string(kSchemaFileName), schema.ToJson(), options_.sync);
}

Status DatasetCommitter::Swap(std::vector<std::string>& keep) {
  const std::string& target = paths_->output;
  const std::string staging = staging_dir();
  ASSIGN_OR_RETURN(const bool exists, fs().Exists(target));
  if (!exists) return fs().Move(staging, target, MoveMode::kNoReplace);
  if (fs().capabilities().exchange) {
    ASSIGN_OR_RETURN(bool exchanged, fs().TryExchange(staging, target));
    if (exchanged) return Status::OK();
  }
  // No RENAME_EXCHANGE here: the output is missing between these two renames.
  const std::string aside = paths_->Aside(job_id_);
  RETURN_NOT_OK(fs().Move(target, aside, MoveMode::kNoReplace));
  AfterStep("old dataset moved aside");
  const Status st = fs().Move(staging, target, MoveMode::kNoReplace);
  if (st.ok()) return st;
  const Status back = fs().Move(aside, target, MoveMode::kNoReplace);
  if (back.ok()) return st;
  // The aside tree is the only copy of the old dataset, the staging tree the new one: keep both.
  kept_after_failed_swap_ = true;
  keep = {staging, aside, paths_->JobLockPath(job_id_)};
  return Status::IOError("cannot commit '" + output_ + "': " + st.message() +
                         "; moving the old dataset back failed too: " + back.message() +
                         ". Nothing was removed: the old dataset is intact at '" + aside + "' and the new one is at '" +
                         staging + "'. Move '" + aside + "' back to '" + target +
                         "' (the next recflow writer of this output also does so)");
}

Status DatasetCommitter::Commit() {
  RETURN_NOT_OK(Prepare());
  RETURN_NOT_OK(registration_->SwapKeeping([this](std::vector<std::string>& keep) { return Swap(keep); }));
  swapped_ = true;
  AfterStep("swapped");
  Status synced = options_.sync ? fs().Sync(paths_->parent) : Status::OK();
  // A brand-new OUTPUT path: each directory the job created is an entry of its parent.
  for (const std::string& dir : created_parents_) {
    if (options_.sync && synced.ok()) synced = fs().Sync(ParentPath(dir));
  }
  // The output is committed: what cannot be removed now is a stale job's for the next writer.
  (void)Finish();
  AfterStep("old dataset removed");
  return synced;
}

Status DatasetCommitter::Abort() {
  if (finished_) return Status::OK();
  return Finish();
}

Status DatasetCommitter::Finish() {
  finished_ = true;
  if (output_lock_) {
    output_lock_->Release();
    registration_->RemovePath(output_lock_->path());
  }
  Status st;
  if (kept_after_failed_swap_) {
    // Leave the lock file to go with the process, so the next writer takes the job for a
    // killed one and moves the old dataset back (RemoveStaleJobs).
    job_lock_.reset();
  } else if (job_lock_) {  // after the swap, the staging name (or the aside one) holds the old dataset
    st = fs().RemoveTree(staging_dir());
    if (st.ok()) st = fs().RemoveTree(paths_->Aside(job_id_));
    if (st.ok()) st = fs().RemoveTree(paths_->DiscardedAttempts(job_id_));
    if (st.ok()) st = job_lock_->RemoveAndRelease();
  }
  if (!swapped_) {
    for (const std::string& dir : created_parents_) fs().RemoveDirectoryIfEmpty(dir);
  }
  registration_.reset();
  return st;
}

}  // namespace recflow::dataset
