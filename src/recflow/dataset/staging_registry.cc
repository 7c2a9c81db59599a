// The registry of unfinished outputs: a mutex-guarded map that a termination handler empties for good.
#include "recflow/dataset/staging_registry.h"

#include <map>
#include <mutex>

#include "recflow/dataset/staging_names_internal.h"

namespace recflow::dataset {

namespace {

struct Entry {
  std::string output;
  std::shared_ptr<FileSystem> fs;
  std::vector<std::string> paths;
  std::vector<std::string> created_dirs;
  bool committed = false;
};

struct Registry {
  std::mutex mutex;
  std::map<int, Entry> entries;
  int next_id = 0;
};

/// Never destroyed: a termination handler may use it while the process exits.
Registry& TheRegistry() {
  static Registry* registry = new Registry();
  return *registry;
}

/// Removes `path`: a directory is renamed first so that nothing can be created under its name.
void RemoveNow(FileSystem& fs, const std::string& path) {
  std::string doomed = path;
  const Result<bool> dir = fs.IsDirectory(path);
  if (dir.ok() && *dir && fs.Move(path, path + std::string(internal::kRemovingSuffix), MoveMode::kNoReplace).ok()) {
    doomed += internal::kRemovingSuffix;
  }
  (void)fs.RemoveTree(doomed);
}

}  // namespace

StagingRegistration::StagingRegistration(std::string output, std::shared_ptr<FileSystem> fs) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  id_ = r.next_id++;
  r.entries[id_].output = std::move(output);
  r.entries[id_].fs = std::move(fs);
}

StagingRegistration::~StagingRegistration() {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.entries.erase(id_);
}

void StagingRegistration::AddPath(const std::string& path) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.entries[id_].paths.push_back(path);
}

void StagingRegistration::RemovePath(const std::string& path) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::erase(r.entries[id_].paths, path);
}

void StagingRegistration::AddCreatedDirectory(const std::string& dir) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.entries[id_].created_dirs.push_back(dir);
}

Status StagingRegistration::Swap(const std::function<Status()>& swap) {
  return SwapKeeping([&](std::vector<std::string>&) { return swap(); });
}

Status StagingRegistration::SwapKeeping(const std::function<Status(std::vector<std::string>& keep)>& swap) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> keep;
  Status st = swap(keep);
  Entry& entry = r.entries[id_];
  if (st.ok()) entry.committed = true;
  for (const std::string& path : keep) std::erase(entry.paths, path);
  return st;
}

std::string RemovedOutputNote(const std::string& output) {
  return "removed the unfinished output of '" + output + "'; what was there is unchanged";
}

std::vector<std::string> RemoveUnfinishedOutputs() {
  Registry& r = TheRegistry();
  r.mutex.lock();  // never unlocked: the process exits
  std::vector<std::string> lines;
  for (const auto& [id, entry] : r.entries) {
    for (const std::string& path : entry.paths) RemoveNow(*entry.fs, path);
    for (const std::string& dir : entry.created_dirs) entry.fs->RemoveDirectoryIfEmpty(dir);
    lines.push_back(entry.committed ? "'" + entry.output + "' was already committed" : RemovedOutputNote(entry.output));
  }
  return lines;
}

}  // namespace recflow::dataset
