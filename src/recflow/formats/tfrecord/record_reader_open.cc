// RecordReader factories: files, buffers and streams, their codec sniffed (formats::Sniff) or given, and decompression.
#include <algorithm>
#include <cstring>

#include "recflow/formats/sniff.h"
#include "recflow/formats/tfrecord/tfrecord_sniffer_internal.h"
#include "recflow/formats/tfrecord/framing.h"
#include "recflow/formats/tfrecord/record_boundary.h"
#include "recflow/formats/tfrecord/record_reader.h"

namespace recflow::tfrecord {

namespace {

std::span<const uint8_t> AsBytes(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

/// Replays bytes already read from a stream (for detection) before the rest of it.
class PrefixedInputStream final : public InputStream {
 public:
  PrefixedInputStream(std::span<const uint8_t> prefix, std::unique_ptr<InputStream> rest)
      : prefix_(prefix.begin(), prefix.end()), rest_(std::move(rest)) {}

  Result<int64_t> Read(void* out, int64_t n) override {
    const auto left = static_cast<int64_t>(prefix_.size()) - prefix_pos_;
    if (left > 0) {
      const int64_t take = std::min(left, n);
      std::memcpy(out, prefix_.data() + prefix_pos_, static_cast<size_t>(take));
      prefix_pos_ += take;
      return take;
    }
    return rest_->Read(out, n);
  }
  int64_t position() const override { return prefix_pos_ + rest_->position(); }
  const std::string& name() const override { return rest_->name(); }

 private:
  std::vector<uint8_t> prefix_;
  int64_t prefix_pos_ = 0;
  std::unique_ptr<InputStream> rest_;
};

/// The content check the reader sniffs with: a TFRecord header decides before a codec's magic (a
/// first record's length can look like a zlib header). No suffixes: only the codec is asked.
formats::SniffRules ReaderSniffers() {
  static const TfrecordSniffer sniffer;
  static const formats::ContentSniffer* const sniffers[] = {&sniffer};
  return {sniffers, {}};
}

/// The codec of an input whose first bytes are `head`, as formats::Sniff finds it (the one
/// detector every reader uses); a codec recflow does not read is a DataError naming `name`.
Result<Compression> SniffCompression(const std::string& name, std::span<const uint8_t> head) {
  const formats::Sniffed sniffed = formats::Sniff(name, head, ReaderSniffers());
  RETURN_NOT_OK(formats::CheckReadableCodec(name, sniffed));
  return formats::ReadableCompression(sniffed.codec).value_or(Compression::kNone);
}

}  // namespace

Result<std::unique_ptr<RecordReader>> RecordReader::Open(const std::string& path, const ReaderOptions& options) {
  RETURN_NOT_OK(options.Validate());
  FileSystem& fs = *options.file_system;
  if (path != "-") {
    Result<FileInfo> info = fs.GetTargetInfo(path);
    if (!info.ok()) return info.status().WithFile(path);
    if (info->type == FileType::kFile) {
      Result<std::shared_ptr<Buffer>> data = fs.MapFile(path);
      if (!data.ok()) return data.status().WithFile(path);
      return FromBuffer(std::move(data).ValueUnsafe(), path, options);
    }
  }
  ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, OpenInputFile(fs, path));
  return FromStream(std::move(in), options);
}

Result<std::unique_ptr<RecordReader>> RecordReader::FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                               const ReaderOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (data == nullptr) return Status::InvalidArgument("RecordReader::FromBuffer: null buffer");
  const std::span<const uint8_t> bytes = data->span();
  Compression compression = options.compression;
  if (options.compression_auto) {
    ASSIGN_OR_RETURN(compression, SniffCompression(name, bytes.first(std::min<size_t>(bytes.size(), formats::kSniffHeadBytes))));
  }
  std::unique_ptr<RecordReader> reader(new RecordReader(name, compression, options));
  if (compression == Compression::kNone) {
    reader->SetWholeInput(std::move(data));
    return reader;
  }
  // Compressed: inflated as consumed (ISA-L, into the reader's window), which beats inflating
  // the whole buffer up front even for a full pass (BENCHMARKS.md, issue 15 gzip).
  Result<std::unique_ptr<InputStream>> stream =
      MakeDecompressingStream(compression, std::make_unique<BufferInputStream>(std::move(data), name));
  if (!stream.ok()) return stream.status().WithFile(name);
  reader->SetStreamInput(std::move(stream).ValueUnsafe(), {});
  return reader;
}

Result<std::unique_ptr<RecordReader>> RecordReader::FromBufferRange(std::shared_ptr<Buffer> data, std::string name,
                                                                    int64_t begin, int64_t end,
                                                                    const ReaderOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (data == nullptr) return Status::InvalidArgument("RecordReader::FromBufferRange: null buffer");
  if (begin < 0 || end < begin) {
    return Status::InvalidArgument("bad record range [" + std::to_string(begin) + ", " + std::to_string(end) + ")")
        .WithFile(name);
  }
  std::unique_ptr<RecordReader> reader(new RecordReader(std::move(name), Compression::kNone, options));
  const int64_t size = data->size();
  reader->SetWholeInput(std::move(data));
  if (begin > 0) {
    reader->pos_ = begin >= size ? size
                                 : FindRecordStart(reader->data_, size, begin,
                                                   static_cast<uint64_t>(options.max_record_bytes));
  }
  reader->limit_ = end;
  return reader;
}

Result<std::unique_ptr<RecordReader>> RecordReader::FromStream(std::unique_ptr<InputStream> in,
                                                               const ReaderOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (in == nullptr) return Status::InvalidArgument("RecordReader::FromStream: null stream");
  const std::string name = in->name();
  Compression compression = options.compression;
  std::string head;
  if (options.compression_auto) {
    Result<std::string> read = formats::ReadSniffHead(*in, ReaderSniffers());
    if (!read.ok()) return read.status().WithFile(name);
    head = std::move(read).ValueUnsafe();
    ASSIGN_OR_RETURN(compression, SniffCompression(name, AsBytes(head)));
  }
  const std::span<const uint8_t> head_bytes = AsBytes(head);
  std::unique_ptr<RecordReader> reader(new RecordReader(name, compression, options));
  if (compression == Compression::kNone) {
    reader->SetStreamInput(std::move(in), head_bytes);
    return reader;
  }
  Result<std::unique_ptr<InputStream>> stream =
      MakeDecompressingStream(compression, std::make_unique<PrefixedInputStream>(head_bytes, std::move(in)));
  if (!stream.ok()) return stream.status().WithFile(name);
  reader->SetStreamInput(std::move(stream).ValueUnsafe(), {});
  return reader;
}

}  // namespace recflow::tfrecord
