// StagedFiles: the open data files of a sink job, each one gzip/zlib/plain stream built from
// chunks or a plain file written at offsets, with at most N file descriptors open at once (others
// are reopened).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/chunked_compression.h"
#include "recflow/core/filesystem.h"
#include "recflow/core/io.h"

namespace recflow::dataset::internal {

/// How StagedFiles writes its files.
enum class StagedWrites {
  kInOrder,     ///< appended by the sink's in-order write stage (Append, AppendUncompressed)
  kPositional,  ///< uncompressed, each chunk's place fixed in order (Reserve), written by any thread (WriteAt)
};

/// The data files one job writes. The in-order calls (Add, Reserve, Append, AppendUncompressed,
/// Close, Rename) come from one thread at a time; WriteAt from any thread, concurrently with them.
class StagedFiles {
 public:
  /// Files on `fs` compressed with `compression`; at most `max_open` open at once (positional
  /// writes in progress hold theirs until they end: up to one more per writing thread).
  /// kPositional needs Compression::kNone and `fs`'s positional_writes.
  StagedFiles(std::shared_ptr<FileSystem> fs, Compression compression, int max_open, StagedWrites writes);
  ~StagedFiles();
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;

  /// How the files are written.
  StagedWrites writes() const { return writes_; }
  /// Registers a file to be created at `path` on its first write (or at Close); returns its id.
  int Add(std::string path);
  /// Appends a chunk to file `id` (kInOrder).
  Status Append(int id, const CompressedChunk& chunk);
  /// Appends `pieces` to file `id` of an uncompressed job in one gathered write
  /// (OutputStream::WriteGathered); InvalidArgument when the files are compressed or positional.
  Status AppendUncompressed(int id, std::span<const std::string_view> pieces);
  /// kPositional: the next `size` bytes of file `id`; returns their offset, for WriteAt.
  int64_t Reserve(int id, int64_t size);
  /// kPositional: writes `pieces` at `offset` of file `id`, a range Reserve returned. Thread-safe;
  /// writes of distinct ranges run at the same time.
  Status WriteAt(int id, int64_t offset, std::span<const std::string_view> pieces);
  /// Finishes file `id` (trailer, close); creates it, empty, if nothing was written. No WriteAt
  /// to it may be running.
  Status Close(int id);
  /// The path given to Add().
  const std::string& path(int id) const;
  /// Bytes written to file `id` so far (compressed; kPositional: reserved).
  int64_t written_bytes(int id) const;
  /// Moves file `id` (closed) to `new_path`.
  Status Rename(int id, std::string new_path);

 private:
  class File;
  File& file(int id) const;
  /// Makes room for one more open descriptor and marks `id` most recently used. With `mutex_` held.
  void Touch(int id);
  std::shared_ptr<FileSystem> fs_;
  Compression compression_;
  size_t max_open_;
  StagedWrites writes_;
  mutable std::mutex mutex_;  // guards files_ (the vector) and the open descriptors
  std::vector<std::unique_ptr<File>> files_;
  std::list<int> open_lru_;  // open files, least recently used first
};

}  // namespace recflow::dataset::internal
