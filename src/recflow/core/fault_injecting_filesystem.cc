// FaultInjectingFileSystem: counts every call (stream calls included) and fails the one asked for.
#include "recflow/core/fault_injecting_filesystem.h"

#include <mutex>

#include "recflow/core/gathered_write.h"

namespace recflow {

std::string_view FsOperationName(FsOperation op) {
  switch (op) {
    case FsOperation::kInfo: return "stat";
    case FsOperation::kOpenRead: return "open";
    case FsOperation::kRead: return "read";
    case FsOperation::kOpenWrite: return "create";
    case FsOperation::kWrite: return "write";
    case FsOperation::kClose: return "close";
    case FsOperation::kList: return "list";
    case FsOperation::kMkdir: return "mkdir";
    case FsOperation::kChmod: return "chmod";
    case FsOperation::kRename: return "rename";
    case FsOperation::kExchange: return "exchange";
    case FsOperation::kLink: return "link";
    case FsOperation::kRemove: return "remove";
    case FsOperation::kSync: return "sync";
    case FsOperation::kLock: return "lock";
  }
  return "call";
}

struct FaultInjectingFileSystem::Injector {
  mutable std::mutex mutex;
  std::optional<FsOperation> op;
  int64_t nth = 0;  // 0: no fault asked for
  FsFault fault = FsFault::kError;
  int64_t times = 1;  // matching calls failed from the nth
  bool crash = false;
  FileSystemCapabilities capabilities;
  int64_t matching = 0;
  int64_t calls = 0;
  bool fired = false;

  /// Counts a call of kind `kind`; the fault it must fail with, if any.
  std::optional<FsFault> Check(FsOperation kind) {
    std::lock_guard<std::mutex> lock(mutex);
    ++calls;
    if (fired && crash) return FsFault::kError;
    if (nth <= 0 || (op && *op != kind)) return std::nullopt;
    ++matching;
    if (matching < nth || matching >= nth + times) return std::nullopt;
    fired = true;
    return fault;
  }

  /// Sets the fault asked for and resets the counts.
  void Set(std::optional<FsOperation> new_op, int64_t new_nth, FsFault new_fault, int64_t new_times, bool new_crash) {
    std::lock_guard<std::mutex> lock(mutex);
    op = new_op;
    nth = new_nth;
    fault = new_fault;
    times = new_times;
    crash = new_crash;
    matching = 0;
    calls = 0;
    fired = false;
  }
};

namespace {

using Injector = FaultInjectingFileSystem::Injector;

/// The IOError of an injected `fault` of call `op` on `path`.
Status Injected(FsOperation op, const std::string& path, FsFault fault) {
  const char* why = fault == FsFault::kError ? "Input/output error" : "No space left on device";
  return Status::IOError("cannot " + std::string(FsOperationName(op)) + " '" + path + "': " + why + " (injected)");
}

/// Counts `op` on `path`; returns from the calling function with the injected error, if any.
#define RECFLOW_INJECT(op, path)                                                         \
  do {                                                                                   \
    if (std::optional<FsFault> fault_ = injector_->Check(op)) return Injected(op, path, *fault_); \
  } while (false)

/// A stream whose reads are counted and may fail or end early.
class FaultInputStream final : public InputStream {
 public:
  FaultInputStream(std::unique_ptr<InputStream> base, std::shared_ptr<Injector> injector)
      : base_(std::move(base)), injector_(std::move(injector)) {}
  Result<int64_t> Read(void* out, int64_t n) override {
    if (ended_) return int64_t{0};
    std::optional<FsFault> fault = injector_->Check(FsOperation::kRead);
    if (fault && *fault != FsFault::kShort) {
      return Injected(FsOperation::kRead, name(), *fault).WithFile(name()).WithOffset(position());
    }
    if (fault) {  // a truncated file: half of what is asked, then the end
      ended_ = true;
      return base_->Read(out, n / 2);
    }
    return base_->Read(out, n);
  }
  int64_t position() const override { return base_->position(); }
  const std::string& name() const override { return base_->name(); }

 private:
  std::unique_ptr<InputStream> base_;
  std::shared_ptr<Injector> injector_;
  bool ended_ = false;
};

/// The first half of the bytes of `pieces`, the piece at the cut taken in part.
std::vector<std::string_view> FirstHalfOf(std::span<const std::string_view> pieces) {
  std::vector<std::string_view> half;
  for (size_t left = TotalSize(pieces) / 2, i = 0; left > 0; ++i) {
    half.push_back(pieces[i].substr(0, left));
    left -= half.back().size();
  }
  return half;
}

/// A stream whose writes and close are counted and may fail, or write half and fail.
class FaultOutputStream final : public OutputStream {
 public:
  FaultOutputStream(std::unique_ptr<OutputStream> base, std::shared_ptr<Injector> injector)
      : base_(std::move(base)), injector_(std::move(injector)) {}
  Status Write(const void* data, int64_t n) override {
    if (std::optional<FsFault> fault = injector_->Check(FsOperation::kWrite)) {
      if (*fault == FsFault::kShort) {
        RETURN_NOT_OK(base_->Write(data, n / 2));
        RETURN_NOT_OK(base_->Flush());
      }
      return Injected(FsOperation::kWrite, name(), *fault).WithOffset(base_->position());
    }
    return base_->Write(data, n);
  }
  /// One counted write: a kShort fault writes the first half of the bytes (cutting through the
  /// pieces, the piece at the cut written in part) before it fails.
  Status WriteGathered(std::span<const std::string_view> pieces) override {
    if (std::optional<FsFault> fault = injector_->Check(FsOperation::kWrite)) {
      if (*fault == FsFault::kShort) {
        RETURN_NOT_OK(base_->WriteGathered(FirstHalfOf(pieces)));
        RETURN_NOT_OK(base_->Flush());
      }
      return Injected(FsOperation::kWrite, name(), *fault).WithOffset(base_->position());
    }
    return base_->WriteGathered(pieces);
  }
  Status Flush() override {
    if (std::optional<FsFault> fault = injector_->Check(FsOperation::kWrite)) {
      return Injected(FsOperation::kWrite, name(), *fault);
    }
    return base_->Flush();
  }
  Status Close() override {
    if (std::optional<FsFault> fault = injector_->Check(FsOperation::kClose)) {
      (void)base_->Close();  // the descriptor goes, the error stays
      return Injected(FsOperation::kClose, name(), *fault);
    }
    return base_->Close();
  }
  int64_t position() const override { return base_->position(); }
  const std::string& name() const override { return base_->name(); }

 private:
  std::unique_ptr<OutputStream> base_;
  std::shared_ptr<Injector> injector_;
};

/// A positional file whose writes and close are counted and may fail, or write half and fail.
class FaultPositionalFile final : public PositionalOutputFile {
 public:
  FaultPositionalFile(std::unique_ptr<PositionalOutputFile> base, std::shared_ptr<Injector> injector)
      : base_(std::move(base)), injector_(std::move(injector)) {}
  /// One counted write: a kShort fault writes the first half of the range before it fails.
  Status WriteGatheredAt(int64_t offset, std::span<const std::string_view> pieces) override {
    if (std::optional<FsFault> fault = injector_->Check(FsOperation::kWrite)) {
      if (*fault == FsFault::kShort) RETURN_NOT_OK(base_->WriteGatheredAt(offset, FirstHalfOf(pieces)));
      return Injected(FsOperation::kWrite, name(), *fault).WithOffset(offset);
    }
    return base_->WriteGatheredAt(offset, pieces);
  }
  Status Close() override {
    if (std::optional<FsFault> fault = injector_->Check(FsOperation::kClose)) {
      (void)base_->Close();  // the descriptor goes, the error stays
      return Injected(FsOperation::kClose, name(), *fault);
    }
    return base_->Close();
  }
  const std::string& name() const override { return base_->name(); }

 private:
  std::unique_ptr<PositionalOutputFile> base_;
  std::shared_ptr<Injector> injector_;
};

/// The first half of `buffer` (a short read of a whole file or range).
Result<std::shared_ptr<Buffer>> FirstHalf(const std::shared_ptr<Buffer>& buffer) {
  return Buffer::Slice(buffer, 0, buffer->size() / 2);
}

}  // namespace

FaultInjectingFileSystem::FaultInjectingFileSystem(std::shared_ptr<FileSystem> base)
    : base_(std::move(base)), injector_(std::make_shared<Injector>()) {}

FaultInjectingFileSystem::~FaultInjectingFileSystem() = default;

void FaultInjectingFileSystem::FailNth(std::optional<FsOperation> op, int64_t nth, FsFault fault, int64_t times) {
  injector_->Set(op, nth, fault, times, /*crash=*/false);
}

void FaultInjectingFileSystem::CrashAtNth(int64_t nth) {
  injector_->Set(std::nullopt, nth, FsFault::kError, 1, /*crash=*/true);
}

void FaultInjectingFileSystem::Clear() { injector_->Set(std::nullopt, 0, FsFault::kError, 1, false); }

void FaultInjectingFileSystem::set_capabilities(const FileSystemCapabilities& capabilities) {
  std::lock_guard<std::mutex> lock(injector_->mutex);
  injector_->capabilities = capabilities;
}

void FaultInjectingFileSystem::set_exchange(bool exchange) {
  std::lock_guard<std::mutex> lock(injector_->mutex);
  injector_->capabilities.exchange = exchange;
}

int64_t FaultInjectingFileSystem::calls() const {
  std::lock_guard<std::mutex> lock(injector_->mutex);
  return injector_->calls;
}

bool FaultInjectingFileSystem::fired() const {
  std::lock_guard<std::mutex> lock(injector_->mutex);
  return injector_->fired;
}

std::string_view FaultInjectingFileSystem::type_name() const { return base_->type_name(); }

FileSystemCapabilities FaultInjectingFileSystem::capabilities() const {
  FileSystemCapabilities caps = base_->capabilities();
  std::lock_guard<std::mutex> lock(injector_->mutex);
  const FileSystemCapabilities& shown = injector_->capabilities;
  caps.atomic_rename = caps.atomic_rename && shown.atomic_rename;
  caps.directories = caps.directories && shown.directories;
  caps.locks = caps.locks && shown.locks;
  caps.hard_links = caps.hard_links && shown.hard_links;
  caps.exchange = caps.exchange && shown.exchange;
  caps.positional_writes = caps.positional_writes && shown.positional_writes;
  return caps;
}

Result<std::string> FaultInjectingFileSystem::ResolvePath(const std::string& path) const {
  return base_->ResolvePath(path);
}

Result<FileInfo> FaultInjectingFileSystem::GetFileInfo(const std::string& path) {
  RECFLOW_INJECT(FsOperation::kInfo, path);
  return base_->GetFileInfo(path);
}

Result<FileInfo> FaultInjectingFileSystem::GetTargetInfo(const std::string& path) {
  RECFLOW_INJECT(FsOperation::kInfo, path);
  return base_->GetTargetInfo(path);
}

Result<bool> FaultInjectingFileSystem::IsMountPoint(const std::string& path) {
  RECFLOW_INJECT(FsOperation::kInfo, path);
  return base_->IsMountPoint(path);
}

Result<std::unique_ptr<InputStream>> FaultInjectingFileSystem::OpenInputStream(const std::string& path) {
  RECFLOW_INJECT(FsOperation::kOpenRead, path);
  ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, base_->OpenInputStream(path));
  return std::unique_ptr<InputStream>(std::make_unique<FaultInputStream>(std::move(in), injector_));
}

Result<std::shared_ptr<Buffer>> FaultInjectingFileSystem::ReadWholeFile(const std::string& path) {
  return ReadWhole(path, [&] { return base_->ReadWholeFile(path); });
}

Result<std::shared_ptr<Buffer>> FaultInjectingFileSystem::MapFile(const std::string& path) {
  return ReadWhole(path, [&] { return base_->MapFile(path); });
}

Result<std::shared_ptr<Buffer>> FaultInjectingFileSystem::ReadWhole(
    const std::string& path, const std::function<Result<std::shared_ptr<Buffer>>()>& read) {
  RECFLOW_INJECT(FsOperation::kOpenRead, path);
  std::optional<FsFault> fault = injector_->Check(FsOperation::kRead);
  if (fault && *fault != FsFault::kShort) return Injected(FsOperation::kRead, path, *fault).WithFile(path).WithOffset(0);
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> data, read());
  if (fault) return FirstHalf(data);
  return data;
}

Result<std::shared_ptr<Buffer>> FaultInjectingFileSystem::ReadRange(const std::string& path, int64_t offset,
                                                                    int64_t length) {
  RECFLOW_INJECT(FsOperation::kOpenRead, path);
  std::optional<FsFault> fault = injector_->Check(FsOperation::kRead);
  if (fault && *fault != FsFault::kShort) {
    return Injected(FsOperation::kRead, path, *fault).WithFile(path).WithOffset(offset);
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> data, base_->ReadRange(path, offset, length));
  if (fault) return FirstHalf(data);
  return data;
}

Result<std::unique_ptr<PositionalOutputFile>> FaultInjectingFileSystem::OpenPositionalOutput(
    const std::string& path, const WriteOptions& options) {
  if (!capabilities().positional_writes) return Status::IOError("cannot write '" + path + "' at offsets: hidden");
  RECFLOW_INJECT(FsOperation::kOpenWrite, path);
  ASSIGN_OR_RETURN(std::unique_ptr<PositionalOutputFile> out, base_->OpenPositionalOutput(path, options));
  return std::unique_ptr<PositionalOutputFile>(std::make_unique<FaultPositionalFile>(std::move(out), injector_));
}

Result<std::unique_ptr<OutputStream>> FaultInjectingFileSystem::OpenOutputStream(const std::string& path,
                                                                                 const WriteOptions& options) {
  RECFLOW_INJECT(FsOperation::kOpenWrite, path);
  ASSIGN_OR_RETURN(std::unique_ptr<OutputStream> out, base_->OpenOutputStream(path, options));
  return std::unique_ptr<OutputStream>(std::make_unique<FaultOutputStream>(std::move(out), injector_));
}

Result<std::vector<std::string>> FaultInjectingFileSystem::ListDirectory(const std::string& path) {
  RECFLOW_INJECT(FsOperation::kList, path);
  return base_->ListDirectory(path);
}

Status FaultInjectingFileSystem::CreateDirectory(const std::string& path, std::optional<unsigned> permissions) {
  RECFLOW_INJECT(FsOperation::kMkdir, path);
  return base_->CreateDirectory(path, permissions);
}

Status FaultInjectingFileSystem::SetPermissions(const std::string& path, unsigned permissions) {
  RECFLOW_INJECT(FsOperation::kChmod, path);
  return base_->SetPermissions(path, permissions);
}

Status FaultInjectingFileSystem::Move(const std::string& from, const std::string& to, MoveMode mode) {
  RECFLOW_INJECT(FsOperation::kRename, from + "' to '" + to);
  return base_->Move(from, to, mode);
}

Result<bool> FaultInjectingFileSystem::TryExchange(const std::string& a, const std::string& b) {
  RECFLOW_INJECT(FsOperation::kExchange, a + "' and '" + b);
  if (!capabilities().exchange) return false;
  return base_->TryExchange(a, b);
}

Status FaultInjectingFileSystem::HardLink(const std::string& from, const std::string& to) {
  RECFLOW_INJECT(FsOperation::kLink, from + "' as '" + to);
  return base_->HardLink(from, to);
}

Status FaultInjectingFileSystem::Remove(const std::string& path) {
  RECFLOW_INJECT(FsOperation::kRemove, path);
  return base_->Remove(path);
}

Status FaultInjectingFileSystem::Sync(const std::string& path) {
  RECFLOW_INJECT(FsOperation::kSync, path);
  return base_->Sync(path);
}

Result<std::unique_ptr<FileLock>> FaultInjectingFileSystem::LockFile(const std::string& path,
                                                                     const LockOptions& options) {
  RECFLOW_INJECT(FsOperation::kLock, path);
  return base_->LockFile(path, options);
}

#undef RECFLOW_INJECT

}  // namespace recflow
