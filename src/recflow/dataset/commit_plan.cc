// LinkKeptEntries: walking the committed dataset and hard-linking what the save mode keeps into the staging tree.
#include "recflow/dataset/commit_plan_internal.h"

#include <algorithm>
#include <set>

#include "recflow/dataset/commit.h"

namespace recflow::dataset::internal {

namespace {

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
Status KeepDirectory(FileSystem& fs, const FileInfo& from, const std::string& to, const std::string& rel) {
  ASSIGN_OR_RETURN(FileInfo there, fs.GetFileInfo(to));
  if (there.exists()) {
    if (there.is_directory()) return Status::OK();
    return Status::AlreadyExists("cannot commit '" + rel + "': the dataset has a directory where the job wrote a file");
  }
  return fs.CreateDirectory(to, from.permissions);
}

/// What LinkKeptEntries walks with.
struct KeepWalk {
  FileSystem& fs;
  const std::string& output;
  const std::string& staging;
  SaveMode mode;
  std::set<std::string> skipped_top;  // top-level names not kept
  std::set<std::string> replaced;     // partitions the job rewrites
  int64_t kept = 0;

  /// Keeps the entries of directory `rel` ("" for the top) of the dataset.
  Status Keep(const std::string& rel) {
    const std::string dir = rel.empty() ? output : output + "/" + rel;
    ASSIGN_OR_RETURN(std::vector<std::string> names, fs.ListDirectory(dir));
    for (const std::string& name : names) {
      const std::string entry = rel.empty() ? name : rel + "/" + name;
      if ((rel.empty() && skipped_top.contains(entry)) ||
          std::any_of(replaced.begin(), replaced.end(), [&](const std::string& p) { return IsAtOrInside(entry, p); })) {
        continue;
      }
      const std::string from = output + "/" + entry;
      const std::string to = staging + "/" + entry;
      ASSIGN_OR_RETURN(FileInfo info, fs.GetFileInfo(from));
      if (info.is_directory()) {
        RETURN_NOT_OK(KeepDirectory(fs, info, to, entry));
        ++kept;
        RETURN_NOT_OK(Keep(entry));
        continue;
      }
      Status st = fs.HardLink(from, to);
      if (st.code() == StatusCode::kAlreadyExists) {
        return Status::AlreadyExists("cannot " + std::string(SaveModeName(mode)) + " '" + entry + "': the dataset in '" +
                                     output + "' already has it");
      }
      RETURN_NOT_OK(st);
      ++kept;
    }
    return Status::OK();
  }
};

}  // namespace

Status RequireNoCommittedContent(FileSystem& fs, const std::string& output, const std::string& name) {
  ASSIGN_OR_RETURN(const bool exists, fs.Exists(output));
  if (!exists) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<std::string> entries, fs.ListDirectory(output));
  std::erase(entries, std::string(kTemporaryDirName));
  if (!entries.empty()) {
    return Status::AlreadyExists("output '" + name + "' already holds a dataset (found '" + entries.front() +
                                 "'); choose another save mode to replace or extend it");
  }
  return Status::OK();
}

Status RefuseUnfinishedLegacyCommit(FileSystem& fs, const std::string& output, const std::string& name, SaveMode mode) {
  if (mode == SaveMode::kOverwrite) return Status::OK();
  const std::string temporary = output + "/" + std::string(kTemporaryDirName);
  ASSIGN_OR_RETURN(const bool legacy, fs.IsDirectory(temporary));
  if (!legacy) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<std::string> jobs, fs.ListDirectory(temporary));
  for (const std::string& job : jobs) {
    const std::string journal = temporary + "/" + job + "/" + std::string(kLegacyJournalName);
    ASSIGN_OR_RETURN(const bool unfinished, fs.Exists(journal));
    if (!unfinished) continue;
    return Status::DataError("output '" + name + "' holds the journal of a commit an earlier recflow version did not " +
                             "finish: the dataset there may be part old, part new (and part in its backup). Run " +
                             "that earlier recflow version once on it (its next write to this output completes or " +
                             "rolls back the commit), or replace the whole dataset with --mode overwrite")
        .WithFile(journal);
  }
  return Status::OK();
}

Result<int64_t> LinkKeptEntries(FileSystem& fs, const std::string& output, const std::string& staging, SaveMode mode,
                                const std::vector<std::string>& staged_files,
                                const std::vector<std::string>& replaced_top_level) {
  if (!KeepsEntries(mode)) return 0;
  KeepWalk walk{fs, output, staging, mode, {replaced_top_level.begin(), replaced_top_level.end()}, {}, 0};
  if (mode == SaveMode::kOverwritePartitions) {
    walk.replaced = WrittenPartitions(staged_files);
    if (walk.replaced.contains("")) return 0;
  }
  walk.skipped_top.insert(std::string(kTemporaryDirName));
  RETURN_NOT_OK(walk.Keep(""));
  return walk.kept;
}

}  // namespace recflow::dataset::internal
