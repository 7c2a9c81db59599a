// RunFiles: one dataset::FileCommit per declared file, committed in target order or all aborted.
#include "recflow/pipeline/run_files.h"

namespace recflow::pipeline {

Result<std::string> RunFiles::Stage(const std::string& target) {
  std::lock_guard lock(mutex_);
  if (!refused_.empty()) return Status::InvalidArgument(refused_).WithFile(target);
  if (files_.count(target) != 0) {
    return Status::AlreadyExists("the run writes '" + target + "' twice").WithFile(target);
  }
  ASSIGN_OR_RETURN(auto commit, dataset::FileCommit::Begin(file_system_, StagedPath(target), target));
  std::string staged = commit->staged();
  files_.emplace(target, std::move(commit));
  return staged;
}

std::unique_ptr<dataset::StagingRegistration> RunFiles::RegisterScratch(const std::string& target,
                                                                       const std::string& path) {
  auto registration = std::make_unique<dataset::StagingRegistration>(target, file_system_);
  registration->AddPath(path);
  return registration;
}

Status RunFiles::Discard(const std::string& target) {
  std::unique_ptr<dataset::FileCommit> commit;
  {
    std::lock_guard lock(mutex_);
    auto it = files_.find(target);
    if (it == files_.end()) return Status::OK();
    commit = std::move(it->second);
    files_.erase(it);
  }
  return commit->Abort();
}

Status RunFiles::Commit() {
  std::lock_guard lock(mutex_);
  while (!files_.empty()) {
    RETURN_NOT_OK(files_.begin()->second->Commit());
    files_.erase(files_.begin());
  }
  return Status::OK();
}

void RunFiles::RefuseStaging(std::string why) {
  std::lock_guard lock(mutex_);
  refused_ = std::move(why);
}

std::vector<std::string> RunFiles::Abort() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> removed;
  for (auto& [target, commit] : files_) {
    if (commit->Abort().ok()) removed.push_back(target);
  }
  return removed;
}

}  // namespace recflow::pipeline
