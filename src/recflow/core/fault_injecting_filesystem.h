// FaultInjectingFileSystem: wraps a FileSystem and fails a chosen call, to test what every failure leaves behind.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "recflow/core/filesystem.h"

namespace recflow {

/// The kinds of calls FaultInjectingFileSystem counts. Stream calls count too: each
/// InputStream::Read (kRead), OutputStream::Write, WriteGathered or Flush and
/// PositionalOutputFile::WriteGatheredAt (kWrite), and their Close (kClose).
enum class FsOperation {
  kInfo,       ///< GetFileInfo, GetTargetInfo, IsMountPoint (ResolvePath is not counted)
  kOpenRead,   ///< OpenInputStream, ReadWholeFile, MapFile, ReadRange
  kRead,       ///< InputStream::Read, and the read of ReadWholeFile / MapFile / ReadRange
  kOpenWrite,  ///< OpenOutputStream, OpenPositionalOutput
  kWrite,      ///< OutputStream::Write, WriteGathered (one call, whatever its pieces) and Flush; WriteGatheredAt
  kClose,      ///< OutputStream::Close, PositionalOutputFile::Close
  kList,       ///< ListDirectory
  kMkdir,      ///< CreateDirectory
  kChmod,      ///< SetPermissions
  kRename,     ///< Move
  kExchange,   ///< TryExchange
  kLink,       ///< HardLink
  kRemove,     ///< Remove
  kSync,       ///< Sync
  kLock,       ///< LockFile
};

/// The name of `op` ("write", "rename", ...).
std::string_view FsOperationName(FsOperation op);

/// How an injected fault fails its call.
enum class FsFault {
  kError,    ///< IOError, nothing done (EIO)
  kNoSpace,  ///< IOError "No space left on device", nothing done (ENOSPC)
  kShort,    ///< a Write (or WriteGathered) writes half its bytes, then fails with ENOSPC; a read returns half the
             ///< bytes asked for, then the end of the file (a truncated file); other calls: kError
};

/// A FileSystem over `base` that fails the Nth call of a chosen kind (or of any kind), once, a
/// few times or, like a process killed there, together with every call after it. It can also hide `base`'s
/// RENAME_EXCHANGE. Counts every call. Thread-safe.
class FaultInjectingFileSystem final : public FileSystem {
 public:
  explicit FaultInjectingFileSystem(std::shared_ptr<FileSystem> base);
  ~FaultInjectingFileSystem() override;

  /// Fails the `nth` (1-based) call of kind `op` (any kind when std::nullopt) from now on, and
  /// the `times` - 1 calls of that kind after it, with `fault`. Resets the counts.
  void FailNth(std::optional<FsOperation> op, int64_t nth, FsFault fault = FsFault::kError, int64_t times = 1);
  /// Fails the `nth` call of any kind from now on and every call after it, as if the process
  /// had been killed there (kError). Resets the counts.
  void CrashAtNth(int64_t nth);
  /// No more faults; resets the counts.
  void Clear();
  /// Hides what `base` can do but `capabilities` lacks (as a file system without RENAME_EXCHANGE,
  /// or an object store, would): capabilities() answers both ANDed, and TryExchange answers false
  /// without moving anything when exchange is hidden. The other verbs still work.
  void set_capabilities(const FileSystemCapabilities& capabilities);
  /// set_capabilities with only `exchange` changed.
  void set_exchange(bool exchange);
  /// Calls counted since the last FailNth / Clear (every kind).
  int64_t calls() const;
  /// True when the fault asked for was injected.
  bool fired() const;

  std::string_view type_name() const override;
  FileSystemCapabilities capabilities() const override;
  Result<std::string> ResolvePath(const std::string& path) const override;
  Result<FileInfo> GetFileInfo(const std::string& path) override;
  Result<FileInfo> GetTargetInfo(const std::string& path) override;
  Result<bool> IsMountPoint(const std::string& path) override;
  Result<std::unique_ptr<InputStream>> OpenInputStream(const std::string& path) override;
  Result<std::shared_ptr<Buffer>> ReadWholeFile(const std::string& path) override;
  Result<std::shared_ptr<Buffer>> MapFile(const std::string& path) override;
  Result<std::shared_ptr<Buffer>> ReadRange(const std::string& path, int64_t offset, int64_t length) override;
  /// Refused (IOError) when set_capabilities hid positional writes.
  Result<std::unique_ptr<PositionalOutputFile>> OpenPositionalOutput(const std::string& path,
                                                                     const WriteOptions& options) override;
  Result<std::unique_ptr<OutputStream>> OpenOutputStream(const std::string& path,
                                                         const WriteOptions& options = {}) override;
  Result<std::vector<std::string>> ListDirectory(const std::string& path) override;
  Status CreateDirectory(const std::string& path, std::optional<unsigned> permissions = std::nullopt) override;
  Status SetPermissions(const std::string& path, unsigned permissions) override;
  Status Move(const std::string& from, const std::string& to, MoveMode mode) override;
  Result<bool> TryExchange(const std::string& a, const std::string& b) override;
  Status HardLink(const std::string& from, const std::string& to) override;
  Status Remove(const std::string& path) override;
  Status Sync(const std::string& path) override;
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path, const LockOptions& options) override;

  /// The counters and the fault asked for, shared with the streams handed out (defined in the .cc).
  struct Injector;

 private:
  /// ReadWholeFile and MapFile: `read` with the faults of an open and a read of `path`.
  Result<std::shared_ptr<Buffer>> ReadWhole(const std::string& path,
                                            const std::function<Result<std::shared_ptr<Buffer>>()>& read);
  std::shared_ptr<FileSystem> base_;
  std::shared_ptr<Injector> injector_;
};

}  // namespace recflow
