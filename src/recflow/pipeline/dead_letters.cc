// DeadLetters: appending failed rows with their error to JSON Lines files.
#include "recflow/pipeline/dead_letters.h"

#include "recflow/formats/jsonl/json_writer.h"

namespace recflow::pipeline {

DeadLetters::~DeadLetters() { (void)Close(); }

Status DeadLetters::Open(const std::string& path, FileSystem& fs, const std::string& at) {
  if (files_.count(path) != 0) return Status::OK();
  const std::string& written = at.empty() ? path : at;
  std::unique_ptr<OutputStream> file;
  if (written == "-") {
    ASSIGN_OR_RETURN(file, FileOutputStream::Open(written));
  } else {
    ASSIGN_OR_RETURN(file, fs.OpenOutputStream(written));
  }
  files_.emplace(path, std::move(file));
  return Status::OK();
}

Status DeadLetters::Write(const std::string& path, const DeadLetter& letter, const std::string& file, int64_t record) {
  const ErrorContext& context = letter.error.context();
  std::string line;
  jsonl::JsonWriter w(&line);
  w.BeginObject();
  w.Key("step");
  w.String(letter.step);
  w.Key("file");
  w.String(file);
  w.Key("record");
  w.Int(record);
  if (context.offset >= 0) {
    w.Key("offset");
    w.Int(context.offset);
  }
  if (!context.field.empty()) {
    w.Key("field");
    w.String(context.field);
  }
  w.Key("error");
  w.String(letter.error.message());
  for (const auto& [key, value] : letter.extra) {
    w.Key(key);
    w.Int(value);
  }
  w.Key("row");
  line += letter.row_json;
  line += "}\n";
  return files_.at(path)->Write(line.data(), static_cast<int64_t>(line.size()));
}

Status DeadLetters::WriteSkipped(const std::string& path, const std::string& step, const SkippedRecord& record) {
  DeadLetter letter{step, 0, record.error, std::string()};
  jsonl::JsonWriter row(&letter.row_json);
  row.Bytes(record.text);
  return Write(path, letter, record.error.context().file, record.error.context().record);
}

Status DeadLetters::Close() {
  Status st;
  for (auto& [path, file] : files_) {
    Status closed = file->Close();
    if (st.ok()) st = std::move(closed);
  }
  files_.clear();
  return st;
}

}  // namespace recflow::pipeline
