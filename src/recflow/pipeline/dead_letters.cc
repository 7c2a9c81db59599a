// DeadLetters: appending failed rows with their error to JSON Lines files.
#include "recflow/pipeline/dead_letters.h"

#include <fmt/core.h>

#include "recflow/formats/jsonl/json_writer.h"

namespace recflow::pipeline {

namespace {

// The directory holding `path` ("." for a bare name).
std::string DirectoryOf(const std::string& path) {
  const std::string parent = ParentPath(path);
  return parent.empty() ? "." : parent;
}

// Cuts file `path` of `fs` to its first `keep` bytes, atomically (the head written to a hidden file, fsynced, renamed
// over it, the directory fsynced): a crash leaves the whole file or its head. DataError naming it when it has fewer.
Status KeepHead(FileSystem& fs, const std::string& path, int64_t keep) {
  ASSIGN_OR_RETURN(const FileInfo info, fs.GetFileInfo(path));
  const int64_t size = info.exists() ? info.size : 0;
  if (size < keep || (info.exists() && info.type != FileType::kFile)) {
    return Status::DataError(fmt::format("the dead letters have {} bytes where the checkpoint says {} (remove the "
                                         "checkpoint to start over)",
                                         size, keep))
        .WithFile(path);
  }
  if (size == keep) return Status::OK();
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> head, fs.ReadRange(path, 0, keep));
  const size_t slash = path.rfind('/');  // npos + 1: a bare name
  const std::string hidden = path.substr(0, slash + 1) + ".recflow-letters-" + path.substr(slash + 1) + ".tmp";
  RETURN_NOT_OK(fs.WriteSmallFile(
      hidden, std::string_view(reinterpret_cast<const char*>(head->data()), static_cast<size_t>(head->size())), true));
  RETURN_NOT_OK(fs.Move(hidden, path, MoveMode::kReplace));
  return fs.Sync(DirectoryOf(path));
}

}  // namespace

DeadLetters::~DeadLetters() { (void)Close(); }

Status DeadLetters::Open(const std::string& path, FileSystem& fs, const std::string& at, std::optional<int64_t> keep) {
  if (files_.count(path) != 0) return Status::OK();
  File file{nullptr, &fs, at.empty() ? path : at};
  if (file.written == "-") {
    if (keep.has_value()) return Status::InvalidArgument("dead letters on standard output cannot be kept to a length");
    ASSIGN_OR_RETURN(file.stream, FileOutputStream::Open(file.written));
  } else if (keep.has_value()) {
    RETURN_NOT_OK(KeepHead(fs, file.written, *keep));
    ASSIGN_OR_RETURN(file.stream, fs.OpenOutputStream(file.written, WriteOptions{.append = true}));
    file.length = file.durable = *keep;
  } else {
    ASSIGN_OR_RETURN(file.stream, fs.OpenOutputStream(file.written));
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
  File& out = files_.at(path);
  RETURN_NOT_OK(out.stream->Write(line.data(), static_cast<int64_t>(line.size())));
  out.length += static_cast<int64_t>(line.size());
  return Status::OK();
}

Status DeadLetters::WriteSkipped(const std::string& path, const std::string& step, const SkippedRecord& record) {
  DeadLetter letter{step, 0, record.error, std::string()};
  jsonl::JsonWriter row(&letter.row_json);
  row.Bytes(record.text);
  return Write(path, letter, record.error.context().file, record.error.context().record);
}

Result<int64_t> DeadLetters::MakeDurable(const std::string& path) {
  File& file = files_.at(path);
  if (file.written == "-") return Status::InvalidArgument("dead letters on standard output cannot be made durable");
  if (file.durable == file.length) return file.length;
  RETURN_NOT_OK(file.stream->Flush());
  RETURN_NOT_OK(file.fs->Sync(file.written));
  if (!file.listed) RETURN_NOT_OK(file.fs->Sync(DirectoryOf(file.written)));  // a crash keeps the file that has them
  file.listed = true;
  file.durable = file.length;
  return file.length;
}

Status DeadLetters::Close() {
  Status st;
  for (auto& [path, file] : files_) {
    Status closed = file.stream->Close();
    if (st.ok()) st = std::move(closed);
  }
  files_.clear();
  return st;
}

}  // namespace recflow::pipeline
