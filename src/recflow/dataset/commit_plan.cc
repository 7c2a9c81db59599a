// Turning a save mode and a staged job into the ordered renames of its commit journal.
#include "recflow/dataset/commit_plan_internal.h"

#include <set>

#include "recflow/dataset/commit.h"
#include "recflow/dataset/commit_fs_internal.h"

namespace recflow::dataset::internal {

namespace {

/// The parent of a relative path, "" at the top level.
std::string RelativeParent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

/// True when `dir` is a proper ancestor directory of relative path `path`.
bool IsInside(const std::string& path, const std::string& dir) {
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

/// Committed top-level entries of `output`: everything but `_temporary`, sorted.
Result<std::vector<std::string>> CommittedEntries(const std::string& output) {
  ASSIGN_OR_RETURN(std::vector<std::string> names, ListDirectory(output));
  std::erase(names, std::string(kTemporaryDirName));
  return names;
}

/// AlreadyExists unless `relative` can be created under `output`: it must not exist, and every
/// existing ancestor must be a directory.
Status RequirePlaceable(const std::string& output, const std::string& relative, bool may_exist) {
  for (std::string dir = RelativeParent(relative); !dir.empty(); dir = RelativeParent(dir)) {
    const std::string path = output + "/" + dir;
    if (PathExists(path) && !IsDirectory(path)) {
      return Status::AlreadyExists("cannot commit '" + relative + "': '" + path + "' exists and is not a directory");
    }
  }
  if (!may_exist && PathExists(output + "/" + relative)) {
    return Status::AlreadyExists("cannot append '" + relative + "': '" + output + "/" + relative + "' already exists");
  }
  return Status::OK();
}

/// Builds the steps; numbers the backups it makes.
class Planner {
 public:
  explicit Planner(const std::string& job_rel) : job_rel_(job_rel) {}
  void MoveAside(const std::string& committed) {
    journal_.steps.push_back({committed, job_rel_ + "/backup/" + std::to_string(num_backups_++)});
  }
  void MoveIn(const std::string& staged) { journal_.steps.push_back({job_rel_ + "/data/" + staged, staged}); }
  CommitJournal Finish() {
    journal_.steps.push_back({job_rel_ + "/" + std::string(kSuccessFileName), std::string(kSuccessFileName)});
    return std::move(journal_);
  }

 private:
  std::string job_rel_;
  CommitJournal journal_;
  int num_backups_ = 0;
};

std::set<std::string> TopLevelEntries(const std::vector<std::string>& files) {
  std::set<std::string> top;
  for (const std::string& file : files) top.insert(file.substr(0, file.find('/')));
  return top;
}

/// The staged files' parent directories, dropping those inside another one; contains "" when a
/// file sits at the top level.
std::set<std::string> WrittenPartitions(const std::vector<std::string>& files) {
  std::set<std::string> parents;
  for (const std::string& file : files) parents.insert(RelativeParent(file));
  std::set<std::string> outermost;
  for (const std::string& dir : parents) {
    bool nested = false;
    for (const std::string& other : parents) nested = nested || (!other.empty() && IsInside(dir, other));
    if (!nested) outermost.insert(dir);
  }
  return outermost;
}

}  // namespace

Status RequireNoCommittedContent(const std::string& output) {
  if (!PathExists(output)) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<std::string> entries, CommittedEntries(output));
  if (!entries.empty()) {
    return Status::AlreadyExists("output '" + output + "' already holds a dataset (found '" + entries.front() +
                                 "'); choose another save mode to replace or extend it");
  }
  return Status::OK();
}

Result<CommitJournal> PlanCommit(const std::string& output, const std::string& job_rel, SaveMode mode,
                                 const std::vector<std::string>& staged_files) {
  Planner plan(job_rel);
  const std::string success(kSuccessFileName);
  ASSIGN_OR_RETURN(std::vector<std::string> committed, CommittedEntries(output));
  const bool has_success = PathExists(output + "/" + success);
  std::set<std::string> partitions;
  if (mode == SaveMode::kOverwritePartitions) {
    partitions = WrittenPartitions(staged_files);
    if (partitions.contains("")) mode = SaveMode::kOverwrite;
  }
  switch (mode) {
    case SaveMode::kErrorIfExists:
      RETURN_NOT_OK(RequireNoCommittedContent(output));
      for (const std::string& top : TopLevelEntries(staged_files)) plan.MoveIn(top);
      break;
    case SaveMode::kOverwrite:
      for (const std::string& entry : committed) plan.MoveAside(entry);
      for (const std::string& top : TopLevelEntries(staged_files)) plan.MoveIn(top);
      break;
    case SaveMode::kAppend:
      for (const std::string& file : staged_files) RETURN_NOT_OK(RequirePlaceable(output, file, false));
      if (has_success) plan.MoveAside(success);
      for (const std::string& file : staged_files) plan.MoveIn(file);
      break;
    case SaveMode::kOverwritePartitions:
      for (const std::string& dir : partitions) RETURN_NOT_OK(RequirePlaceable(output, dir, true));
      if (has_success) plan.MoveAside(success);
      for (const std::string& dir : partitions) {
        if (PathExists(output + "/" + dir)) plan.MoveAside(dir);
      }
      for (const std::string& dir : partitions) plan.MoveIn(dir);
      break;
  }
  return plan.Finish();
}

}  // namespace recflow::dataset::internal
