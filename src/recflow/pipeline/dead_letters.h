// DeadLetters: the JSON Lines files that take the rows steps failed on (Beam's dead-letter pattern).
#pragma once

#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "recflow/core/result.h"

namespace recflow::pipeline {

/// One failed row on its way to a dead-letter file.
struct DeadLetter {
  std::string step;
  int64_t unit_row = 0;  ///< the row within its unit (the record index is added in order)
  Status error;
  std::string row_json;  ///< the row's values as a JSON object
};

/// The open dead-letter files of a run, by path. Lines are
/// {"step": S, "file": F, "record": R, "error": E, "row": {...}}.
class DeadLetters {
 public:
  DeadLetters() = default;
  DeadLetters(const DeadLetters&) = delete;
  DeadLetters& operator=(const DeadLetters&) = delete;
  ~DeadLetters();
  /// Creates (truncates) `path` unless already open.
  Status Open(const std::string& path);
  /// Appends `letter` to `path` (opened before), as from input `file` at record `record`
  /// (the letter's own error context is not used for them).
  Status Write(const std::string& path, const DeadLetter& letter, const std::string& file, int64_t record);
  /// Flushes and closes every file.
  Status Close();

 private:
  std::map<std::string, std::FILE*> files_;
};

}  // namespace recflow::pipeline
