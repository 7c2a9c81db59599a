// StampSplitFile and CheckSplitFile: the size and modification time that tie a split to one version of its file.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "recflow/dataset/split.h"

namespace recflow::dataset {

namespace {

struct Stamp {
  int64_t size = 0;
  int64_t mtime_ns = 0;
};

Result<Stamp> StatFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return Status::IOError(std::string("cannot stat: ") + std::strerror(errno)).WithFile(path);
  }
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument("not a regular file: only files can be split (a pipe or device is read once)")
        .WithFile(path);
  }
  return Stamp{static_cast<int64_t>(st.st_size),
               static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + static_cast<int64_t>(st.st_mtim.tv_nsec)};
}

}  // namespace

Status StampSplitFile(Split* split) {
  ASSIGN_OR_RETURN(const Stamp stamp, StatFile(split->path));
  split->file_size = stamp.size;
  split->file_mtime_ns = stamp.mtime_ns;
  return Status::OK();
}

Status CheckSplitFile(const Split& split) {
  Result<Stamp> stamp = StatFile(split.path);
  if (!stamp.ok()) {
    return Status::DataError("the split's file cannot be read (" + stamp.status().message() +
                             "): make the splits again")
        .WithFile(split.path);
  }
  if (stamp->size == split.file_size && stamp->mtime_ns == split.file_mtime_ns) return Status::OK();
  return Status::DataError("the file changed since the split was made (size " + std::to_string(split.file_size) +
                           " -> " + std::to_string(stamp->size) + ", modification time " +
                           std::to_string(split.file_mtime_ns) + " -> " + std::to_string(stamp->mtime_ns) +
                           " ns): its records may have moved; make the splits again")
      .WithFile(split.path);
}

}  // namespace recflow::dataset
