// KeptMappings: stat(2) the path; the kept mapping when the file is the one mapped, else a new mapping kept instead
// (within the bounds on files and bytes).
#include "recflow/python/kept_mappings.h"

#include <sys/stat.h>

namespace recflow::python {

Result<std::shared_ptr<Buffer>> KeptMappings::MapFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return base().MapFile(path);  // base() names what is wrong
  // Taken before the file is mapped: a file changed in between is kept under its older identity, and mapped again.
  const Identity identity{st.st_dev, st.st_ino, st.st_size, st.st_mtim};
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto found = kept_.find(path);
    if (found != kept_.end() && found->second.identity == identity) return found->second.mapping;
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> mapping, base().MapFile(path));
  if (mapping->size() > kMaxKeptBytes) return mapping;
  const std::lock_guard<std::mutex> lock(mutex_);
  if (const auto replaced = kept_.find(path); replaced != kept_.end()) {
    kept_bytes_ -= replaced->second.mapping->size();
    kept_.erase(replaced);
  }
  if (kept_.size() >= kMaxKept || kept_bytes_ + mapping->size() > kMaxKeptBytes) {
    kept_.clear();
    kept_bytes_ = 0;
  }
  kept_.emplace(path, Kept{identity, mapping});
  kept_bytes_ += mapping->size();
  return mapping;
}

size_t KeptMappings::kept() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return kept_.size();
}

}  // namespace recflow::python
