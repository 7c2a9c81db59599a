// RecordWriter: framing each record with its length and masked CRC32Cs.
#include "recflow/formats/tfrecord/record_writer.h"

#include "recflow/formats/tfrecord/framing.h"

namespace recflow::tfrecord {

Status WriterOptions::Validate() const {
  if (compression > Compression::kZlib) {
    return Status::InvalidArgument("unknown compression code " + std::to_string(static_cast<int>(compression)));
  }
  if (level < -1 || level > 9) {
    return Status::InvalidArgument("compression level must be -1 (default) or 0..9, got " + std::to_string(level));
  }
  return Status::OK();
}

Result<std::unique_ptr<RecordWriter>> RecordWriter::Open(const std::string& path, const WriterOptions& options,
                                                         FileSystem& fs) {
  RETURN_NOT_OK(options.Validate());
  Result<std::unique_ptr<OutputStream>> file = fs.OpenOutputStream(path);
  if (!file.ok()) return file.status().WithFile(path);
  return Make(std::move(file).ValueUnsafe(), options);
}

Result<std::unique_ptr<RecordWriter>> RecordWriter::Make(std::unique_ptr<OutputStream> out,
                                                         const WriterOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (out == nullptr) return Status::InvalidArgument("RecordWriter::Make: null output stream");
  const std::string name = out->name();
  Result<std::unique_ptr<OutputStream>> stream = MakeCompressingStream(options.compression, std::move(out), options.level);
  if (!stream.ok()) return stream.status().WithFile(name);
  return std::unique_ptr<RecordWriter>(new RecordWriter(std::move(stream).ValueUnsafe()));
}

RecordWriter::~RecordWriter() {
  if (!closed_) (void)Close();
}

Status RecordWriter::Write(std::string_view record) {
  if (closed_) return Status::InvalidArgument("RecordWriter::Write after Close").WithFile(out_->name());
  if (Status st = CheckRecordLength(record.size()); !st.ok()) {
    return st.WithFile(out_->name()).WithRecord(records_written_);
  }
  const auto* data = reinterpret_cast<const uint8_t*>(record.data());
  uint8_t header[kHeaderSize];
  EncodeHeader(record.size(), header);
  uint8_t footer[kFooterSize];
  EncodeFooter(data, record.size(), footer);
  Status st = out_->Write(header, kHeaderSize);
  if (st.ok()) st = out_->Write(data, static_cast<int64_t>(record.size()));
  if (st.ok()) st = out_->Write(footer, kFooterSize);
  if (!st.ok()) return st.WithFile(out_->name()).WithRecord(records_written_);
  ++records_written_;
  bytes_written_ += kFramingOverhead + static_cast<int64_t>(record.size());
  return Status::OK();
}

Status RecordWriter::Close() {
  if (closed_) return Status::OK();
  closed_ = true;
  return out_->Close();
}

}  // namespace recflow::tfrecord
