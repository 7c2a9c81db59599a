// The job side of the commit protocol: staging paths, commit through the journal, abort.
#include "recflow/dataset/commit.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "recflow/dataset/commit_fs_internal.h"
#include "recflow/dataset/commit_journal_internal.h"
#include "recflow/dataset/commit_plan_internal.h"
#include "recflow/dataset/partition_path.h"
#include "recflow/dataset/shard_naming.h"
#include "recflow/dataset/stale_jobs_internal.h"

namespace recflow::dataset {

namespace {

std::string TemporaryDir(const std::string& output) { return output + "/" + std::string(kTemporaryDirName); }

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
  return Status::OK();
}

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

DatasetCommitter::DatasetCommitter(std::string output, SaveMode mode, CommitOptions options, std::string job_id,
                                   std::unique_ptr<internal::JobLock> lock)
    : output_(std::move(output)),
      mode_(mode),
      options_(std::move(options)),
      job_id_(std::move(job_id)),
      lock_(std::move(lock)) {}

Status RecoverDataset(const std::string& output) {
  std::error_code ec;
  if (!std::filesystem::is_directory(std::filesystem::path(output) / std::string(kTemporaryDirName), ec)) {
    return Status::OK();
  }
  return internal::RecoverStaleJobs(output, /*sync=*/true);
}

Result<std::unique_ptr<DatasetCommitter>> DatasetCommitter::Begin(const std::string& output, SaveMode mode,
                                                                  CommitOptions options) {
  RETURN_NOT_OK(options.Validate());
  if (output.empty()) return Status::InvalidArgument("empty output directory");
  std::string dir = TrimTrailingSlashes(output);
  if (internal::PathExists(dir) && !internal::IsDirectory(dir)) {
    return Status::AlreadyExists("output '" + dir + "' exists and is not a directory");
  }
  RETURN_NOT_OK(internal::RecoverStaleJobs(dir, options.sync));
  if (mode == SaveMode::kErrorIfExists) RETURN_NOT_OK(internal::RequireNoCommittedContent(dir));
  std::string job_id = options.job_id.empty() ? NewRandomUuid() : options.job_id;
  const std::string temporary = TemporaryDir(dir);
  RETURN_NOT_OK(internal::CreateDirectories(temporary));
  // The lock exists before the job directory, so a directory without a lock is never a live job.
  ASSIGN_OR_RETURN(internal::JobLock lock, internal::JobLock::Create(temporary + "/" + job_id +
                                                                      std::string(internal::kLockSuffix)));
  RETURN_NOT_OK(internal::CreateDirectories(temporary + "/" + job_id + "/data"));
  return std::unique_ptr<DatasetCommitter>(
      new DatasetCommitter(std::move(dir), mode, std::move(options), std::move(job_id),
                           std::make_unique<internal::JobLock>(std::move(lock))));
}

DatasetCommitter::~DatasetCommitter() {
  if (!finished_) (void)Abort();
}

std::string DatasetCommitter::JobDir() const { return TemporaryDir(output_) + "/" + job_id_; }

void DatasetCommitter::AfterStep(std::string_view step) const {
  if (options_.after_step) options_.after_step(step);
}

Result<std::string> DatasetCommitter::NewFilePath(const std::string& relative_path) {
  if (finished_) return Status::InvalidArgument("job " + job_id_ + " is already committed or aborted");
  RETURN_NOT_OK(ValidateStagedPath(relative_path));
  const std::string path = JobDir() + "/data/" + relative_path;
  const size_t slash = path.rfind('/');
  RETURN_NOT_OK(internal::CreateDirectories(path.substr(0, slash)));
  return path;
}

Status DatasetCommitter::Commit() {
  if (finished_) return Status::InvalidArgument("job " + job_id_ + " is already committed or aborted");
  const std::string job_dir = JobDir();
  ASSIGN_OR_RETURN(std::vector<std::string> files, internal::ListFilesRecursively(job_dir + "/data"));
  RETURN_NOT_OK(internal::WriteEmptyFile(job_dir + "/" + std::string(kSuccessFileName), options_.sync));
  if (options_.sync) {
    for (const std::string& file : files) RETURN_NOT_OK(internal::SyncPath(job_dir + "/data/" + file));
    ASSIGN_OR_RETURN(std::vector<std::string> dirs, internal::ListDirectoriesRecursively(job_dir));
    for (const std::string& dir : dirs) RETURN_NOT_OK(internal::SyncPath(dir));
  }
  AfterStep("staging synced");
  const std::string job_rel = std::string(kTemporaryDirName) + "/" + job_id_;
  ASSIGN_OR_RETURN(internal::CommitJournal journal, internal::PlanCommit(output_, job_rel, mode_, files));
  RETURN_NOT_OK(internal::WriteJournal(job_dir, journal, options_.sync));
  AfterStep("journal written");
  RETURN_NOT_OK(internal::ApplyJournal(output_, journal, options_.sync, options_.after_step));
  RETURN_NOT_OK(internal::RemoveJournal(job_dir, options_.sync));
  AfterStep("journal removed");
  return Finish();
}

Status DatasetCommitter::Abort() {
  if (finished_) return Status::OK();
  const std::string job_dir = JobDir();
  ASSIGN_OR_RETURN(std::optional<internal::CommitJournal> journal, internal::ReadJournal(job_dir));
  if (journal) {
    RETURN_NOT_OK(internal::ApplyJournal(output_, *journal, options_.sync, nullptr));
    RETURN_NOT_OK(internal::RemoveJournal(job_dir, options_.sync));
  }
  return Finish();
}

Status DatasetCommitter::Finish() {
  RETURN_NOT_OK(internal::RemoveTree(JobDir()));
  RETURN_NOT_OK(lock_->RemoveAndRelease());
  finished_ = true;
  internal::RemoveDirectoryIfEmpty(TemporaryDir(output_));
  return Status::OK();
}

}  // namespace recflow::dataset
