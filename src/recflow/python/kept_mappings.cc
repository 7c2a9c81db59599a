// KeptMappings: stat(2) the path; the kept mapping when the file is the one mapped, else a new mapping kept instead.
#include "recflow/python/kept_mappings.h"

#include <sys/stat.h>

namespace recflow::python {

Result<std::shared_ptr<Buffer>> KeptMappings::MapFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return base_->MapFile(path);  // base_ names what is wrong
  // Taken before the file is mapped: a file changed in between is kept under its older identity, and mapped again.
  const Identity identity{st.st_dev, st.st_ino, st.st_size, st.st_mtim};
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto found = kept_.find(path);
    if (found != kept_.end() && found->second.identity == identity) return found->second.mapping;
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> mapping, base_->MapFile(path));
  const std::lock_guard<std::mutex> lock(mutex_);
  if (kept_.size() >= kMaxKept && kept_.find(path) == kept_.end()) kept_.clear();
  kept_[path] = Kept{identity, mapping};
  return mapping;
}

size_t KeptMappings::kept() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return kept_.size();
}

}  // namespace recflow::python
