// FileCommit: sync the staged file, rename it over the target under the termination registry, sync the directory.
#include "recflow/dataset/file_commit.h"

namespace recflow::dataset {

Result<std::unique_ptr<FileCommit>> FileCommit::Begin(std::shared_ptr<FileSystem> fs, std::string staged,
                                                      std::string target, bool sync) {
  if (fs == nullptr) return Status::InvalidArgument("file commit without a file system");
  if (!fs->capabilities().atomic_rename) {
    return Status::InvalidArgument("cannot commit '" + target + "' safely: the " + std::string(fs->type_name()) +
                                   " file system has no atomic rename");
  }
  return std::unique_ptr<FileCommit>(new FileCommit(std::move(fs), std::move(staged), std::move(target), sync));
}

FileCommit::FileCommit(std::shared_ptr<FileSystem> fs, std::string staged, std::string target, bool sync)
    : fs_(std::move(fs)), staged_(std::move(staged)), target_(std::move(target)), sync_(sync), registration_(target_, fs_) {
  registration_.AddPath(staged_);
}

FileCommit::~FileCommit() {
  if (!finished_) (void)Abort();
}

Status FileCommit::Commit() {
  if (finished_) return Status::InvalidArgument("'" + target_ + "' was already committed or aborted");
  Status st = sync_ ? fs_->Sync(staged_) : Status::OK();
  if (st.ok()) st = registration_.Swap([&] { return fs_->Move(staged_, target_, MoveMode::kReplace); });
  if (!st.ok()) {
    (void)Abort();
    return Status(st.code(), target_ + ": cannot commit: " + st.message());
  }
  finished_ = true;
  const std::string parent = ParentPath(target_);
  return sync_ ? fs_->Sync(parent.empty() ? "." : parent) : Status::OK();
}

Status FileCommit::Abort() {
  if (finished_) return Status::OK();
  finished_ = true;
  Status st = fs_->Remove(staged_);
  return st.code() == StatusCode::kNotFound ? Status::OK() : st;
}

}  // namespace recflow::dataset
