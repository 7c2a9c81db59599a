// StagedFiles: chunked stream writers, or positional files, over files closed and reopened under an fd budget.
#include "recflow/dataset/staged_files_internal.h"

namespace recflow::dataset::internal {

// A path written as an OutputStream (in order) or at offsets, that can be closed between writes
// and reopened.
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

  /// Opens the stream: created on the first call, appended to afterwards.
  Status EnsureOpen() {
    if (stream_) return Status::OK();
    ASSIGN_OR_RETURN(stream_, fs_.OpenOutputStream(path_, NextOpen()));
    created_ = true;
    return Status::OK();
  }
  /// The positional file, opened like EnsureOpen's stream (kept as it is when reopened).
  Result<std::shared_ptr<PositionalOutputFile>> Positional() {
    if (!positional_) {
      ASSIGN_OR_RETURN(positional_, fs_.OpenPositionalOutput(path_, NextOpen()));
      created_ = true;
    }
    return positional_;
  }
  /// Closes the descriptor (flushing); the next write reopens it. A positional file being written
  /// is closed when its last write ends.
  Status Suspend() {
    positional_.reset();
    if (!stream_) return Status::OK();
    Status st = stream_->Close();
    stream_.reset();
    return st;
  }
  /// Closes for good, reporting the positional file's errors too (no write may be running).
  Status CloseFile() {
    if (positional_) RETURN_NOT_OK(positional_->Close());
    return Suspend();
  }
  /// The next `size` bytes of a positional file.
  int64_t Reserve(int64_t size) {
    position_ += size;
    return position_ - size;
  }
  ChunkedStreamWriter& writer() { return writer_; }
  std::string& path() { return path_; }

 private:
  // Truncating on the first open, keeping what is there on the next ones.
  WriteOptions NextOpen() const {
    WriteOptions options;
    options.append = created_;
    return options;
  }
  FileSystem& fs_;
  std::string path_;
  std::unique_ptr<OutputStream> stream_;
  std::shared_ptr<PositionalOutputFile> positional_;
  bool created_ = false;
  int64_t position_ = 0;  // bytes written (in order) or reserved (positional)
  ChunkedStreamWriter writer_;
};

StagedFiles::StagedFiles(std::shared_ptr<FileSystem> fs, Compression compression, int max_open, StagedWrites writes)
    : fs_(std::move(fs)), compression_(compression), max_open_(static_cast<size_t>(max_open)), writes_(writes) {}

StagedFiles::~StagedFiles() {
  for (auto& f : files_) (void)f->Suspend();
}

StagedFiles::File& StagedFiles::file(int id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return *files_[static_cast<size_t>(id)];
}

int StagedFiles::Add(std::string path) {
  std::lock_guard<std::mutex> lock(mutex_);
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
  std::lock_guard<std::mutex> lock(mutex_);
  Touch(id);
  File& f = *files_[static_cast<size_t>(id)];
  RETURN_NOT_OK(f.EnsureOpen());
  return f.writer().Append(chunk);
}

Status StagedFiles::AppendUncompressed(int id, std::span<const std::string_view> pieces) {
  if (compression_ != Compression::kNone || writes_ != StagedWrites::kInOrder) {
    return Status::InvalidArgument(path(id) + ": a gathered append needs an uncompressed file written in order");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  Touch(id);
  return files_[static_cast<size_t>(id)]->WriteGathered(pieces);
}

int64_t StagedFiles::Reserve(int id, int64_t size) { return file(id).Reserve(size); }

Status StagedFiles::WriteAt(int id, int64_t offset, std::span<const std::string_view> pieces) {
  std::shared_ptr<PositionalOutputFile> out;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Touch(id);
    ASSIGN_OR_RETURN(out, files_[static_cast<size_t>(id)]->Positional());
  }
  return out->WriteGatheredAt(offset, pieces);  // outside the lock: other chunks are written meanwhile
}

Status StagedFiles::Close(int id) {
  std::lock_guard<std::mutex> lock(mutex_);
  Touch(id);
  File& f = *files_[static_cast<size_t>(id)];
  open_lru_.remove(id);
  if (writes_ == StagedWrites::kPositional) {
    RETURN_NOT_OK(f.Positional().status());  // an empty file is created
    return f.CloseFile();
  }
  RETURN_NOT_OK(f.EnsureOpen());
  RETURN_NOT_OK(f.writer().Finish());
  return f.CloseFile();
}

const std::string& StagedFiles::path(int id) const { return file(id).path(); }

int64_t StagedFiles::written_bytes(int id) const { return file(id).position(); }

Status StagedFiles::Rename(int id, std::string new_path) {
  File& f = file(id);
  RETURN_NOT_OK(fs_->Move(f.path(), new_path, MoveMode::kNoReplace));
  f.path() = std::move(new_path);
  return Status::OK();
}

}  // namespace recflow::dataset::internal
