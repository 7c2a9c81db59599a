// DeadLetters: appending failed rows with their error to JSON Lines files.
#include "recflow/pipeline/dead_letters.h"

#include <cerrno>
#include <cstring>

#include "recflow/formats/jsonl/json_writer.h"

namespace recflow::pipeline {

DeadLetters::~DeadLetters() { (void)Close(); }

Status DeadLetters::Open(const std::string& path) {
  if (files_.count(path) != 0) return Status::OK();
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return Status::IOError("cannot create dead-letter file " + path + ": " + std::strerror(errno));
  files_[path] = file;
  return Status::OK();
}

Status DeadLetters::Write(const std::string& path, const DeadLetter& letter, const std::string& file, int64_t record) {
  std::string line;
  jsonl::JsonWriter w(&line);
  w.BeginObject();
  w.Key("step");
  w.String(letter.step);
  w.Key("file");
  w.String(file);
  w.Key("record");
  w.Int(record);
  if (!letter.error.context().field.empty()) {
    w.Key("field");
    w.String(letter.error.context().field);
  }
  w.Key("error");
  w.String(letter.error.message());
  w.Key("row");
  line += letter.row_json;
  line += "}\n";
  std::FILE* out = files_.at(path);
  if (std::fwrite(line.data(), 1, line.size(), out) != line.size()) {
    return Status::IOError("cannot write dead-letter file " + path + ": " + std::strerror(errno));
  }
  return Status::OK();
}

Status DeadLetters::Close() {
  Status st;
  for (auto& [path, file] : files_) {
    if (std::fclose(file) != 0 && st.ok()) st = Status::IOError("cannot write dead-letter file " + path);
  }
  files_.clear();
  return st;
}

}  // namespace recflow::pipeline
