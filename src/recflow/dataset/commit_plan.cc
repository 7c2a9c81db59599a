// LinkKeptEntries: walking the committed dataset and hard-linking what the save mode keeps into the staging tree.
#include "recflow/dataset/commit_plan_internal.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <system_error>

#include "recflow/dataset/commit.h"
#include "recflow/dataset/commit_fs_internal.h"

namespace recflow::dataset::internal {

namespace {

namespace fs = std::filesystem;

/// The parent of a relative path, "" at the top level.
std::string RelativeParent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

/// True when relative path `path` is `dir` or lies inside it.
bool IsAtOrInside(const std::string& path, const std::string& dir) {
  return path.starts_with(dir) && (path.size() == dir.size() || path[dir.size()] == '/');
}

/// The staged files' parent directories, dropping those inside another one; contains "" when a
/// file sits at the top level.
std::set<std::string> WrittenPartitions(const std::vector<std::string>& files) {
  std::set<std::string> parents;
  for (const std::string& file : files) parents.insert(RelativeParent(file));
  std::set<std::string> outermost;
  for (const std::string& dir : parents) {
    bool nested = false;
    for (const std::string& other : parents) nested = nested || (!other.empty() && other != dir && IsAtOrInside(dir, other));
    if (!nested) outermost.insert(dir);
  }
  return outermost;
}

/// Recreates directory `rel` of the dataset in the staging tree (merging with a staged one).
Status KeepDirectory(const std::string& from, const std::string& to, const std::string& rel) {
  if (PathExists(to)) {
    if (IsDirectory(to)) return Status::OK();
    return Status::AlreadyExists("cannot commit '" + rel + "': the dataset has a directory where the job wrote a file");
  }
  struct stat st;
  const unsigned mode = ::lstat(from.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0777;
  RETURN_NOT_OK(MakeDirectory(to, mode));
  ::chmod(to.c_str(), static_cast<mode_t>(mode));  // mkdir applied the umask
  return Status::OK();
}

}  // namespace

Status RequireNoCommittedContent(const std::string& output, const std::string& name) {
  if (!PathExists(output)) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<std::string> entries, ListDirectory(output));
  std::erase(entries, std::string(kTemporaryDirName));
  if (!entries.empty()) {
    return Status::AlreadyExists("output '" + name + "' already holds a dataset (found '" + entries.front() +
                                 "'); choose another save mode to replace or extend it");
  }
  return Status::OK();
}

Status RefuseUnfinishedLegacyCommit(const std::string& output, const std::string& name, SaveMode mode) {
  if (mode == SaveMode::kOverwrite) return Status::OK();
  const std::string temporary = output + "/" + std::string(kTemporaryDirName);
  if (!IsDirectory(temporary)) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<std::string> jobs, ListDirectory(temporary));
  for (const std::string& job : jobs) {
    const std::string journal = temporary + "/" + job + "/" + std::string(kLegacyJournalName);
    if (!PathExists(journal)) continue;
    return Status::DataError("output '" + name + "' holds the journal of a commit an earlier recflow version did not " +
                             "finish: the dataset there may be part old, part new (and part in its backup). Run " +
                             "that earlier recflow version once on it (its next write to this output completes or " +
                             "rolls back the commit), or replace the whole dataset with --mode overwrite")
        .WithFile(journal);
  }
  return Status::OK();
}

Result<int64_t> LinkKeptEntries(const std::string& output, const std::string& staging, SaveMode mode,
                                const std::vector<std::string>& staged_files,
                                const std::vector<std::string>& replaced_top_level) {
  if (!KeepsEntries(mode)) return 0;
  std::set<std::string> replaced;
  if (mode == SaveMode::kOverwritePartitions) {
    replaced = WrittenPartitions(staged_files);
    if (replaced.contains("")) return 0;
  }
  std::set<std::string> skipped_top(replaced_top_level.begin(), replaced_top_level.end());
  skipped_top.insert(std::string(kTemporaryDirName));
  int64_t kept = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(output, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string rel = it->path().lexically_relative(output).string();
    const bool is_dir = it->symlink_status(ec).type() == fs::file_type::directory;
    if (ec) break;
    const bool skip = (it.depth() == 0 && skipped_top.contains(rel)) ||
                      std::any_of(replaced.begin(), replaced.end(), [&](const std::string& p) { return IsAtOrInside(rel, p); });
    if (skip) {
      if (is_dir) it.disable_recursion_pending();
      continue;
    }
    const std::string from = it->path().string();
    const std::string to = staging + "/" + rel;
    if (is_dir) {
      RETURN_NOT_OK(KeepDirectory(from, to, rel));
    } else {
      Status st = HardLink(from, to);
      if (st.code() == StatusCode::kAlreadyExists) {
        return Status::AlreadyExists("cannot " + std::string(SaveModeName(mode)) + " '" + rel + "': the dataset in '" +
                                     output + "' already has it");
      }
      RETURN_NOT_OK(st);
    }
    ++kept;
  }
  if (ec) return Status::IOError("cannot list directory '" + output + "': " + ec.message());
  return kept;
}

}  // namespace recflow::dataset::internal
