// MemoryFileSystem: a tree of shared nodes behind one mutex; locks wait on a condition variable.
#include "recflow/core/memory_filesystem.h"

#include <condition_variable>
#include <map>
#include <mutex>

#include "recflow/core/gathered_write.h"

namespace recflow {

namespace {

/// A file or a directory; a file may have several names (hard links).
struct Node {
  FileType type = FileType::kFile;
  unsigned permissions = 0644;
  std::string data;                                        // a file's bytes
  std::map<std::string, std::shared_ptr<Node>> children;  // a directory's entries
  bool locked = false;
};

/// The components of `path`, `.` and `..` resolved lexically.
std::vector<std::string> Components(std::string_view path) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (begin <= path.size()) {
    const size_t end = std::min(path.find('/', begin), path.size());
    const std::string_view part = path.substr(begin, end - begin);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.emplace_back(part);
    }
    begin = end + 1;
  }
  return parts;
}

Status Missing(const std::string& what, const std::string& path) {
  return Status::NotFound(what + " '" + path + "': No such file or directory");
}

}  // namespace

struct MemoryFileSystem::State {
  std::mutex mutex;
  std::condition_variable unlocked;
  std::shared_ptr<Node> root = std::make_shared<Node>(Node{FileType::kDirectory, 0755, {}, {}, false});

  /// The node `path` names, null when none. Call with `mutex` held.
  std::shared_ptr<Node> Find(const std::string& path) const {
    std::shared_ptr<Node> node = root;
    for (const std::string& part : Components(path)) {
      if (node->type != FileType::kDirectory) return nullptr;
      auto it = node->children.find(part);
      if (it == node->children.end()) return nullptr;
      node = it->second;
    }
    return node;
  }
  /// The directory holding `path`'s last component, and that component. Call with `mutex` held.
  Result<std::pair<Node*, std::string>> Parent(const std::string& what, const std::string& path) const {
    std::vector<std::string> parts = Components(path);
    if (parts.empty()) return Status::InvalidArgument(what + " '" + path + "': the root directory");
    std::string leaf = std::move(parts.back());
    parts.pop_back();
    Node* node = root.get();
    for (const std::string& part : parts) {
      auto it = node->children.find(part);
      if (it == node->children.end()) return Missing(what, path);
      node = it->second.get();
      if (node->type != FileType::kDirectory) return Status::IOError(what + " '" + path + "': Not a directory");
    }
    return std::make_pair(node, std::move(leaf));
  }
  /// The file `path` names; NotFound or IOError (a directory) otherwise. Call with `mutex` held.
  Result<std::shared_ptr<Node>> File(const std::string& what, const std::string& path) const {
    std::shared_ptr<Node> node = Find(path);
    if (node == nullptr) return Missing(what, path);
    if (node->type != FileType::kFile) return Status::IOError(what + " '" + path + "': Is a directory");
    return node;
  }
};

namespace {

/// Appends to a file node under the file system's mutex.
class MemoryOutputStream final : public OutputStream {
 public:
  MemoryOutputStream(std::shared_ptr<MemoryFileSystem::State> state, std::shared_ptr<Node> node, std::string name)
      : state_(std::move(state)), node_(std::move(node)), name_(std::move(name)) {}
  Status Write(const void* data, int64_t n) override {
    if (closed_) return Status::IOError(name_ + ": write after close");
    if (n <= 0) return Status::OK();
    std::lock_guard<std::mutex> lock(state_->mutex);
    node_->data.append(static_cast<const char*>(data), static_cast<size_t>(n));
    position_ += n;
    return Status::OK();
  }
  /// Appends every piece under one lock, the file grown once.
  Status WriteGathered(std::span<const std::string_view> pieces) override {
    if (closed_) return Status::IOError(name_ + ": write after close");
    const size_t size = TotalSize(pieces);
    std::lock_guard<std::mutex> lock(state_->mutex);
    node_->data.reserve(node_->data.size() + size);
    for (std::string_view piece : pieces) node_->data += piece;
    position_ += static_cast<int64_t>(size);
    return Status::OK();
  }
  Status Flush() override { return closed_ ? Status::IOError(name_ + ": flush after close") : Status::OK(); }
  Status Close() override {
    closed_ = true;
    return Status::OK();
  }
  int64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }

 private:
  std::shared_ptr<MemoryFileSystem::State> state_;
  std::shared_ptr<Node> node_;
  std::string name_;
  int64_t position_ = 0;
  bool closed_ = false;
};

/// Writes a file node at given offsets under the file system's mutex (a gap reads as zeros).
class MemoryPositionalFile final : public PositionalOutputFile {
 public:
  MemoryPositionalFile(std::shared_ptr<MemoryFileSystem::State> state, std::shared_ptr<Node> node, std::string name)
      : state_(std::move(state)), node_(std::move(node)), name_(std::move(name)) {}
  Status WriteGatheredAt(int64_t offset, std::span<const std::string_view> pieces) override {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (closed_) return Status::IOError(name_ + ": write after close");
    size_t at = static_cast<size_t>(offset);
    if (node_->data.size() < at + TotalSize(pieces)) node_->data.resize(at + TotalSize(pieces));
    for (std::string_view piece : pieces) {
      node_->data.replace(at, piece.size(), piece);
      at += piece.size();
    }
    return Status::OK();
  }
  Status Close() override {
    std::lock_guard<std::mutex> lock(state_->mutex);
    closed_ = true;
    return Status::OK();
  }
  const std::string& name() const override { return name_; }

 private:
  std::shared_ptr<MemoryFileSystem::State> state_;
  std::shared_ptr<Node> node_;
  std::string name_;
  bool closed_ = false;
};

/// A lock on a node, released on destruction.
class MemoryFileLock final : public FileLock {
 public:
  MemoryFileLock(std::shared_ptr<MemoryFileSystem::State> state, std::shared_ptr<Node> node, std::string path)
      : FileLock(std::move(path)), state_(std::move(state)), node_(std::move(node)) {}
  ~MemoryFileLock() override { Release(false); }
  bool NamesLockedFile() const override {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return node_ != nullptr && state_->Find(path()) == node_;
  }
  Status UnlinkAndRelease() override {
    Release(true);
    return Status::OK();
  }

 private:
  void Release(bool unlink) {
    if (node_ == nullptr) return;
    {
      std::lock_guard<std::mutex> lock(state_->mutex);
      if (unlink) {
        Result<std::pair<Node*, std::string>> parent = state_->Parent("cannot remove lock file", path());
        if (parent.ok()) {
          auto it = parent->first->children.find(parent->second);
          if (it != parent->first->children.end() && it->second->type == FileType::kFile) {
            parent->first->children.erase(it);
          }
        }
      }
      node_->locked = false;
      node_.reset();
    }
    state_->unlocked.notify_all();
  }
  std::shared_ptr<MemoryFileSystem::State> state_;
  std::shared_ptr<Node> node_;
};

}  // namespace

MemoryFileSystem::MemoryFileSystem() : state_(std::make_shared<State>()) {}

MemoryFileSystem::~MemoryFileSystem() = default;

Result<std::string> MemoryFileSystem::ResolvePath(const std::string& path) const {
  std::string out;
  for (const std::string& part : Components(path)) out.append("/").append(part);
  return out.empty() ? std::string("/") : out;
}

Result<FileInfo> MemoryFileSystem::GetFileInfo(const std::string& path) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  FileInfo info;
  std::shared_ptr<Node> node = state_->Find(path);
  if (node == nullptr) return info;
  info.type = node->type;
  info.permissions = node->permissions;
  if (node->type == FileType::kFile) info.size = static_cast<int64_t>(node->data.size());
  return info;
}

Result<bool> MemoryFileSystem::IsMountPoint(const std::string& path) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (state_->Find(path) == nullptr) return Missing("cannot stat", path);
  return false;
}

Result<std::unique_ptr<InputStream>> MemoryFileSystem::OpenInputStream(const std::string& path) {
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> data, ReadWholeFile(path));
  return std::unique_ptr<InputStream>(std::make_unique<BufferInputStream>(std::move(data), path));
}

Result<std::shared_ptr<Buffer>> MemoryFileSystem::ReadWholeFile(const std::string& path) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  ASSIGN_OR_RETURN(std::shared_ptr<Node> node, state_->File("cannot open", path));
  return Buffer::FromString(node->data);
}

Result<std::shared_ptr<Buffer>> MemoryFileSystem::MapFile(const std::string& path) { return ReadWholeFile(path); }

Result<std::shared_ptr<Buffer>> MemoryFileSystem::ReadRange(const std::string& path, int64_t offset, int64_t length) {
  if (offset < 0 || length < 0) return Status::InvalidArgument(path + ": negative range");
  std::lock_guard<std::mutex> lock(state_->mutex);
  ASSIGN_OR_RETURN(std::shared_ptr<Node> node, state_->File("cannot open", path));
  const auto size = static_cast<int64_t>(node->data.size());
  const int64_t from = std::min(offset, size);
  return Buffer::FromString(node->data.substr(static_cast<size_t>(from), static_cast<size_t>(std::min(length, size - from))));
}

namespace {

/// The file node `path` names for writing: created, or emptied unless `options.append`. Call with
/// the mutex held.
Result<std::shared_ptr<Node>> WritableNode(MemoryFileSystem::State& state, const std::string& path,
                                           const WriteOptions& options) {
  ASSIGN_OR_RETURN(auto parent, state.Parent("cannot create", path));
  std::shared_ptr<Node>& slot = parent.first->children[parent.second];
  if (slot == nullptr) {
    slot = std::make_shared<Node>();
  } else if (slot->type != FileType::kFile) {
    return Status::IOError("cannot create '" + path + "': Is a directory");
  } else if (!options.append) {
    slot->data.clear();
  }
  return slot;
}

}  // namespace

Result<std::unique_ptr<OutputStream>> MemoryFileSystem::OpenOutputStream(const std::string& path,
                                                                         const WriteOptions& options) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  ASSIGN_OR_RETURN(std::shared_ptr<Node> node, WritableNode(*state_, path, options));
  return std::unique_ptr<OutputStream>(std::make_unique<MemoryOutputStream>(state_, std::move(node), path));
}

Result<std::unique_ptr<PositionalOutputFile>> MemoryFileSystem::OpenPositionalOutput(const std::string& path,
                                                                                     const WriteOptions& options) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  ASSIGN_OR_RETURN(std::shared_ptr<Node> node, WritableNode(*state_, path, options));
  return std::unique_ptr<PositionalOutputFile>(std::make_unique<MemoryPositionalFile>(state_, std::move(node), path));
}

Result<std::vector<std::string>> MemoryFileSystem::ListDirectory(const std::string& path) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  std::shared_ptr<Node> node = state_->Find(path);
  if (node == nullptr) return Status::IOError("cannot list directory '" + path + "': No such file or directory");
  if (node->type != FileType::kDirectory) return Status::IOError("cannot list directory '" + path + "': Not a directory");
  std::vector<std::string> names;
  for (const auto& [name, child] : node->children) names.push_back(name);
  return names;
}

Status MemoryFileSystem::CreateDirectory(const std::string& path, std::optional<unsigned> permissions) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  ASSIGN_OR_RETURN(auto parent, state_->Parent("cannot create directory", path));
  std::shared_ptr<Node>& slot = parent.first->children[parent.second];
  if (slot != nullptr) return Status::AlreadyExists("cannot create directory '" + path + "': it exists");
  slot = std::make_shared<Node>(Node{FileType::kDirectory, permissions.value_or(0755), {}, {}, false});
  return Status::OK();
}

Status MemoryFileSystem::SetPermissions(const std::string& path, unsigned permissions) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  std::shared_ptr<Node> node = state_->Find(path);
  if (node == nullptr) return Missing("cannot chmod", path);
  node->permissions = permissions & 07777;
  return Status::OK();
}

Status MemoryFileSystem::Move(const std::string& from, const std::string& to, MoveMode mode) {
  const std::string what = "cannot move '" + from + "' to '" + to + "'";
  std::lock_guard<std::mutex> lock(state_->mutex);
  ASSIGN_OR_RETURN(auto source, state_->Parent(what + ": source", from));
  ASSIGN_OR_RETURN(auto target, state_->Parent(what + ": target", to));
  auto it = source.first->children.find(source.second);
  if (it == source.first->children.end()) return Missing(what + ": source", from);
  std::shared_ptr<Node> moved = it->second;
  const std::string to_resolved = *ResolvePath(to);
  const std::string from_resolved = *ResolvePath(from);
  if (to_resolved.starts_with(from_resolved + "/")) return Status::IOError(what + ": Invalid argument");
  auto existing = target.first->children.find(target.second);
  if (existing != target.first->children.end()) {
    if (existing->second == moved) return Status::OK();
    if (mode == MoveMode::kNoReplace) return Status::AlreadyExists(what + ": it exists");
    if (existing->second->type == FileType::kDirectory &&
        (moved->type != FileType::kDirectory || !existing->second->children.empty())) {
      return Status::IOError(what + ": Directory not empty or not a directory");
    }
  }
  source.first->children.erase(it);
  target.first->children[target.second] = std::move(moved);
  return Status::OK();
}

Result<bool> MemoryFileSystem::TryExchange(const std::string& a, const std::string& b) {
  const std::string what = "cannot exchange '" + a + "' and '" + b + "'";
  std::lock_guard<std::mutex> lock(state_->mutex);
  ASSIGN_OR_RETURN(auto pa, state_->Parent(what, a));
  ASSIGN_OR_RETURN(auto pb, state_->Parent(what, b));
  auto ia = pa.first->children.find(pa.second);
  auto ib = pb.first->children.find(pb.second);
  if (ia == pa.first->children.end() || ib == pb.first->children.end()) return Missing(what, a);
  std::swap(ia->second, ib->second);
  return true;
}

Status MemoryFileSystem::HardLink(const std::string& from, const std::string& to) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  std::shared_ptr<Node> node = state_->Find(from);
  if (node == nullptr) return Missing("cannot hard-link", from);
  if (node->type == FileType::kDirectory) {
    return Status::IOError("cannot hard-link '" + from + "' as '" + to + "': Operation not permitted");
  }
  ASSIGN_OR_RETURN(auto parent, state_->Parent("cannot hard-link", to));
  std::shared_ptr<Node>& slot = parent.first->children[parent.second];
  if (slot != nullptr) return Status::AlreadyExists("cannot link '" + from + "' as '" + to + "': it exists");
  slot = std::move(node);
  return Status::OK();
}

Status MemoryFileSystem::Remove(const std::string& path) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  ASSIGN_OR_RETURN(auto parent, state_->Parent("cannot remove", path));
  auto it = parent.first->children.find(parent.second);
  if (it == parent.first->children.end()) return Missing("cannot remove", path);
  if (it->second->type == FileType::kDirectory && !it->second->children.empty()) {
    return Status::IOError("cannot remove '" + path + "': Directory not empty");
  }
  parent.first->children.erase(it);
  return Status::OK();
}

Status MemoryFileSystem::Sync(const std::string& path) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (state_->Find(path) == nullptr) return Missing("cannot open for fsync", path);
  return Status::OK();
}

Result<std::unique_ptr<FileLock>> MemoryFileSystem::LockFile(const std::string& path, const LockOptions& options) {
  std::shared_ptr<Node> node;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    ASSIGN_OR_RETURN(auto parent, state_->Parent("cannot open lock file", path));
    auto it = parent.first->children.find(parent.second);
    if (it != parent.first->children.end()) {
      if (options.creation == LockOptions::Creation::kCreateNew) {
        return Status::AlreadyExists("cannot create lock file '" + path + "': it exists");
      }
      if (it->second->type != FileType::kFile) return Status::IOError("cannot open lock file '" + path + "': Is a directory");
      node = it->second;
    } else {
      if (options.creation == LockOptions::Creation::kExisting) return Missing("cannot open lock file", path);
      node = std::make_shared<Node>();
      parent.first->children[parent.second] = node;
    }
  }
  if (options.before_lock) options.before_lock();
  std::unique_lock<std::mutex> lock(state_->mutex);
  if (node->locked && !options.wait) return std::unique_ptr<FileLock>();
  state_->unlocked.wait(lock, [&] { return !node->locked; });
  node->locked = true;
  return std::unique_ptr<FileLock>(std::make_unique<MemoryFileLock>(state_, std::move(node), path));
}

}  // namespace recflow
