// KeptMappings: a local FileSystem whose MapFile hands out again the mapping it made of a file that has not changed,
// so that a dataset read every epoch is mapped (and its pages faulted in and unmapped) once, not once per epoch.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <ctime>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "recflow/core/forwarding_filesystem.h"

namespace recflow::python {

/// The FileSystem of a recflow.read dataset: every verb is `base`'s (the local file system: paths
/// are the kernel's), but MapFile keeps each mapping and returns it again while the file at that
/// path is the same one, unchanged — device, inode, size and modification time as when it was
/// mapped — and maps it anew otherwise. A training loop's every epoch then reads the pages the
/// first one mapped: the kernel's work of faulting a file's pages into a fresh mapping and
/// unmapping them after, about 12 % of the CPU of a Fashion-MNIST epoch into torch, is done once. At
/// most kMaxKept files and kMaxKeptBytes of them are kept (all are let go when one more would pass
/// either bound, and a file larger than kMaxKeptBytes is not kept: a bigger dataset is mapped per
/// read as before, and the pages a process keeps mapped, which count in its resident size, stay
/// bounded). A file rewritten in place with its size and time unchanged to the nanosecond is read
/// as it was mapped. Thread-safe.
class KeptMappings final : public ForwardingFileSystem {
 public:
  /// Files whose mappings are kept at most.
  static constexpr size_t kMaxKept = 1024;
  /// Bytes of the files whose mappings are kept at most.
  static constexpr int64_t kMaxKeptBytes = int64_t{2} << 30;

  /// Over `base`, the local file system.
  explicit KeptMappings(std::shared_ptr<FileSystem> base) : ForwardingFileSystem(std::move(base)) {}

  /// The mapping of `path` made before, when the file is unchanged since; else `base`'s new one
  /// (kept).
  Result<std::shared_ptr<Buffer>> MapFile(const std::string& path) override;

  /// The files whose mappings are kept now.
  size_t kept() const;

 private:
  /// What tells one state of a file from another.
  struct Identity {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    timespec modified{};

    bool operator==(const Identity& other) const {
      return device == other.device && inode == other.inode && size == other.size &&
             modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec;
    }
  };
  struct Kept {
    Identity identity;
    std::shared_ptr<Buffer> mapping;
  };

  mutable std::mutex mutex_;
  std::map<std::string, Kept> kept_;
  int64_t kept_bytes_ = 0;  ///< the sizes of the kept mappings
};

}  // namespace recflow::python
