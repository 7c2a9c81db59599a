// StagedFiles: the open data files of a sink job, each one gzip/zlib/plain stream built from
// chunks, with at most N file descriptors open at once (others are reopened for appending).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/chunked_compression.h"
#include "recflow/core/filesystem.h"
#include "recflow/core/io.h"

namespace recflow::dataset::internal {

/// The data files one job writes; single-threaded (the sink's in-order write stage).
class StagedFiles {
 public:
  /// Files on `fs` compressed with `compression`; at most `max_open` open at once.
  StagedFiles(std::shared_ptr<FileSystem> fs, Compression compression, int max_open);
  ~StagedFiles();
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;

  /// Registers a file to be created at `path` on its first write (or at Close); returns its id.
  int Add(std::string path);
  /// Appends a chunk to file `id`.
  Status Append(int id, const CompressedChunk& chunk);
  /// Appends `pieces` to file `id` of an uncompressed job in one gathered write
  /// (OutputStream::WriteGathered); InvalidArgument when the files are compressed.
  Status AppendUncompressed(int id, std::span<const std::string_view> pieces);
  /// Finishes file `id` (trailer, close); creates it, empty, if nothing was written.
  Status Close(int id);
  /// The path given to Add().
  const std::string& path(int id) const;
  /// Bytes written to file `id` so far (compressed).
  int64_t written_bytes(int id) const;
  /// Moves file `id` (closed) to `new_path`.
  Status Rename(int id, std::string new_path);

 private:
  class File;
  /// Makes room for one more open descriptor and marks `id` most recently used.
  void Touch(int id);
  std::shared_ptr<FileSystem> fs_;
  Compression compression_;
  size_t max_open_;
  std::vector<std::unique_ptr<File>> files_;
  std::list<int> open_lru_;  // open files, least recently used first
};

}  // namespace recflow::dataset::internal
