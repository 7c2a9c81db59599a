// StagedFiles: chunked stream writers over files that are closed and reopened under an fd budget.
#include "recflow/dataset/staged_files_internal.h"

namespace recflow::dataset::internal {

// An OutputStream over a path that can be closed between writes and reopened for appending.
class StagedFiles::File final : public OutputStream {
 public:
  File(FileSystem& fs, std::string path, Compression compression)
      : fs_(fs), path_(std::move(path)), writer_(compression, this) {}

  Status Write(const void* data, int64_t n) override {
    RETURN_NOT_OK(EnsureOpen());
    RETURN_NOT_OK(stream_->Write(data, n));
    position_ += n;
    return Status::OK();
  }
  Status WriteGathered(std::span<const std::string_view> pieces) override {
    RETURN_NOT_OK(EnsureOpen());
    const int64_t before = stream_->position();
    RETURN_NOT_OK(stream_->WriteGathered(pieces));
    position_ += stream_->position() - before;
    return Status::OK();
  }
  Status Flush() override { return stream_ ? stream_->Flush() : Status::OK(); }
  Status Close() override { return Suspend(); }
  int64_t position() const override { return position_; }
  const std::string& name() const override { return path_; }

  /// Opens the file: created on the first call, appended to afterwards.
  Status EnsureOpen() {
    if (stream_) return Status::OK();
    WriteOptions options;
    options.append = created_;
    ASSIGN_OR_RETURN(stream_, fs_.OpenOutputStream(path_, options));
    created_ = true;
    return Status::OK();
  }
  /// Closes the descriptor (flushing); the next write reopens it.
  Status Suspend() {
    if (!stream_) return Status::OK();
    Status st = stream_->Close();
    stream_.reset();
    return st;
  }
  bool is_open() const { return stream_ != nullptr; }
  ChunkedStreamWriter& writer() { return writer_; }
  std::string& path() { return path_; }

 private:
  FileSystem& fs_;
  std::string path_;
  std::unique_ptr<OutputStream> stream_;
  bool created_ = false;
  int64_t position_ = 0;
  ChunkedStreamWriter writer_;
};

StagedFiles::StagedFiles(std::shared_ptr<FileSystem> fs, Compression compression, int max_open)
    : fs_(std::move(fs)),
      compression_(compression), max_open_(static_cast<size_t>(max_open)) {}

StagedFiles::~StagedFiles() {
  for (auto& f : files_) (void)f->Suspend();
}

int StagedFiles::Add(std::string path) {
  files_.push_back(std::make_unique<File>(*fs_, std::move(path), compression_));
  return static_cast<int>(files_.size() - 1);
}

void StagedFiles::Touch(int id) {
  for (auto it = open_lru_.begin(); it != open_lru_.end(); ++it) {
    if (*it == id) {
      open_lru_.erase(it);
      open_lru_.push_back(id);
      return;
    }
  }
  while (open_lru_.size() >= max_open_) {
    (void)files_[static_cast<size_t>(open_lru_.front())]->Suspend();  // errors resurface on reopen
    open_lru_.pop_front();
  }
  open_lru_.push_back(id);
}

Status StagedFiles::Append(int id, const CompressedChunk& chunk) {
  Touch(id);
  File& f = *files_[static_cast<size_t>(id)];
  RETURN_NOT_OK(f.EnsureOpen());
  return f.writer().Append(chunk);
}

Status StagedFiles::AppendUncompressed(int id, std::span<const std::string_view> pieces) {
  if (compression_ != Compression::kNone) {
    return Status::InvalidArgument(path(id) + ": a gathered append needs an uncompressed file");
  }
  Touch(id);
  return files_[static_cast<size_t>(id)]->WriteGathered(pieces);
}

Status StagedFiles::Close(int id) {
  Touch(id);
  File& f = *files_[static_cast<size_t>(id)];
  RETURN_NOT_OK(f.EnsureOpen());
  RETURN_NOT_OK(f.writer().Finish());
  open_lru_.remove(id);
  return f.Suspend();
}

const std::string& StagedFiles::path(int id) const { return files_[static_cast<size_t>(id)]->path(); }

int64_t StagedFiles::written_bytes(int id) const { return files_[static_cast<size_t>(id)]->position(); }

Status StagedFiles::Rename(int id, std::string new_path) {
  File& f = *files_[static_cast<size_t>(id)];
  RETURN_NOT_OK(fs_->Move(f.path(), new_path, MoveMode::kNoReplace));
  f.path() = std::move(new_path);
  return Status::OK();
}

}  // namespace recflow::dataset::internal
