// ArrowSource: IpcFileReader batches decoded by their units; IpcStreamReader batches decoded in order.
#include "recflow/formats/arrow_ipc/arrow_source.h"

#include "recflow/formats/arrow_ipc/ipc_file_reader.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"

namespace recflow::arrow_ipc {

namespace {

/// Record batch `index` of a file, decoded when the unit is (ReadBatch is thread-safe).
class FileBatchUnit final : public SourceUnit {
 public:
  FileBatchUnit(std::shared_ptr<const IpcFileReader> file, int index, int64_t bytes)
      : file_(std::move(file)), index_(index), bytes_(bytes) {}
  Result<DecodedUnit> Decode() override {
    DecodedUnit out;
    ASSIGN_OR_RETURN(out.batch, file_->ReadBatch(index_));
    out.input_records = out.batch->num_rows();
    return out;
  }
  int64_t input_bytes() const override { return bytes_; }

 private:
  std::shared_ptr<const IpcFileReader> file_;
  int index_;
  int64_t bytes_;
};

/// Bytes of the messages `block` spans.
int64_t BlockBytes(const FileBlock& block) { return block.metadata_length + block.body_length; }

/// Units carry their record batch message; the first also the dictionary batches, read at open.
class FileSource final : public Source {
 public:
  FileSource(std::shared_ptr<const IpcFileReader> file, std::string name, int first, int end)
      : file_(std::move(file)), name_(std::move(name)), first_(first), next_(first), end_(end) {}
  const SchemaPtr& schema() const override { return file_->schema(); }
  const std::string& name() const override { return name_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    const FileReader& metadata = file_->metadata();
    if (next_ >= end_) return std::unique_ptr<SourceUnit>();
    int64_t bytes = BlockBytes(metadata.record_batch_block(next_));
    if (next_ == first_) {
      for (int i = 0; i < metadata.num_dictionaries(); ++i) bytes += BlockBytes(metadata.dictionary_block(i));
    }
    const int index = next_++;
    return std::unique_ptr<SourceUnit>(std::make_unique<FileBatchUnit>(file_, index, bytes));
  }

 private:
  std::shared_ptr<const IpcFileReader> file_;
  std::string name_;
  int first_;
  int next_;
  int end_;
};

/// Units carry the messages read for their batch: the dictionary batches before it and its own.
class StreamSource final : public Source {
 public:
  StreamSource(std::unique_ptr<IpcStreamReader> stream, std::string name)
      : stream_(std::move(stream)), name_(std::move(name)), position_(stream_->bytes_read()) {}
  const SchemaPtr& schema() const override { return stream_->schema(); }
  const std::string& name() const override { return name_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, stream_->Next());
    if (batch == nullptr) return std::unique_ptr<SourceUnit>();
    const int64_t bytes = stream_->bytes_read() - position_;
    position_ = stream_->bytes_read();
    return MakeBatchUnit(std::move(batch), bytes);
  }

 private:
  std::unique_ptr<IpcStreamReader> stream_;
  std::string name_;
  int64_t position_;  // of the messages, where the last unit's ended
};

}  // namespace

Result<std::unique_ptr<Source>> OpenArrowSource(const std::string& path, formats::ContentKind content,
                                                const IpcReadOptions& options) {
  RETURN_NOT_OK(options.Validate());
  const std::string name = path == "-" ? "<stdin>" : path;
  if (content == formats::ContentKind::kArrowFile) {
    const Result<FileInfo> info = path == "-" ? FileInfo() : options.file_system->GetTargetInfo(path);
    if (!info.ok()) return info.status().WithFile(name);
    if (info->type != FileType::kFile) {
      return Status::InvalidArgument(
                 "an Arrow IPC file needs random access (its footer is at the end), which standard input or a "
                 "pipe does not give: save it to a file and pass its path, or send it as an Arrow IPC stream")
          .WithFile(name);
    }
    ASSIGN_OR_RETURN(auto file, IpcFileReader::OpenFile(path, options));
    const int batches = file->num_batches();
    return std::unique_ptr<Source>(std::make_unique<FileSource>(std::move(file), name, 0, batches));
  }
  ASSIGN_OR_RETURN(auto stream, IpcStreamReader::OpenFile(path, options));
  return std::unique_ptr<Source>(std::make_unique<StreamSource>(std::move(stream), name));
}

Result<std::unique_ptr<Source>> OpenArrowFileBatches(std::shared_ptr<Buffer> data, const std::string& path, int64_t first,
                                                     int64_t end, const IpcReadOptions& options) {
  ASSIGN_OR_RETURN(auto file, IpcFileReader::Open(std::move(data), path, options));
  const int batches = file->num_batches();
  if (first < 0 || end < first || end > batches) {
    return Status::InvalidArgument("record batches [" + std::to_string(first) + ", " + std::to_string(end) +
                                   ") are not within the file's " + std::to_string(batches))
        .WithFile(path);
  }
  return std::unique_ptr<Source>(
      std::make_unique<FileSource>(std::move(file), path, static_cast<int>(first), static_cast<int>(end)));
}

}  // namespace recflow::arrow_ipc
