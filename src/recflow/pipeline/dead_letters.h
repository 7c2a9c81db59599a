// DeadLetters: the JSON Lines files that take the rows steps failed on (Beam's dead-letter pattern).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "recflow/core/filesystem.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/source.h"

namespace recflow::pipeline {

/// One failed row on its way to a dead-letter file.
struct DeadLetter {
  std::string step;
  int64_t unit_row = 0;  ///< the row within its unit (the record index is added in order)
  Status error;
  std::string row_json;  ///< the row as JSON: its values as an object, or its raw text as a string
  /// Integer members written after "error" (a late row's event_time, watermark, window_start, window_end).
  std::vector<std::pair<std::string, int64_t>> extra = {};
};

/// The open dead-letter files of a run, by path (and `recflow convert --bad-rows file:PATH`).
/// One line per failed row, documented in docs/pipelines.md:
/// {"step": S, "file": F, "record": R, "offset": O, "field": C, "error": E, ..., "row": ...}
/// where "offset" (the byte offset in the input) and "field" appear only when the error knows
/// them, the letter's `extra` members follow "error", and "row" is the row's values as an object, or for a record the reader could not parse
/// its raw text as a string.
class DeadLetters {
 public:
  DeadLetters() = default;
  DeadLetters(const DeadLetters&) = delete;
  DeadLetters& operator=(const DeadLetters&) = delete;
  ~DeadLetters();
  /// Creates (truncates) `path` of `fs` (the run's) unless already open; "-" is standard output.
  /// `at`, when given, is where the letters of `path` are written instead. With `keep` (a restart from a checkpoint
  /// naming the file's length), the file keeps its first `keep` bytes instead (the rest, letters written after the
  /// checkpoint, is cut off atomically) and the letters are appended: DataError naming the file when it has fewer.
  Status Open(const std::string& path, FileSystem& fs, const std::string& at = "", std::optional<int64_t> keep = {});
  /// Appends `letter` to `path` (opened before), as from input `file` at record `record`
  /// (the letter's own error context gives only the offset and field).
  Status Write(const std::string& path, const DeadLetter& letter, const std::string& file, int64_t record);
  /// Appends a record the reader of `step` could not parse, at the file and record of its error,
  /// with its raw text as the row (a JSON bytes value: {"$base64": ...} when not UTF-8).
  Status WriteSkipped(const std::string& path, const std::string& step, const SkippedRecord& record);
  /// Makes the letters of `path` written so far durable (flushed and fsynced; nothing to do when none came since the
  /// last call) and returns its length in bytes: those Open kept and those written since. Not for standard output.
  Result<int64_t> MakeDurable(const std::string& path);
  /// Flushes and closes every file.
  Status Close();

 private:
  struct File {
    std::unique_ptr<OutputStream> stream;
    FileSystem* fs = nullptr;
    std::string written;  // where the letters go (Open's `at`, or the path)
    int64_t length = 0;   // bytes in the file: kept by Open, then written
    int64_t durable = 0;  // of those, made durable by MakeDurable (or kept)
    bool listed = false;  // its directory entry was made durable (by MakeDurable)
  };
  std::map<std::string, File> files_;
};

}  // namespace recflow::pipeline
