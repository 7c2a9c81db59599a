// OpenSplitRecords: a split's range opened by its format's splitter over the mapped file, or the whole file by its opener.
#include "recflow/dataset/split_open_internal.h"

#include <utility>

#include "recflow/core/compression.h"

namespace recflow::dataset {

namespace {

/// What Sniff calls the codec a split records.
Result<formats::SniffedCodec> SniffedCodecOf(const Split& split) {
  Result<Compression> codec = ParseCompression(split.compression);
  if (!codec.ok()) return Status::InvalidArgument("bad split: " + codec.status().message()).WithFile(split.path);
  switch (*codec) {
    case Compression::kGzip:
      return formats::SniffedCodec::kGzip;
    case Compression::kZlib:
      return formats::SniffedCodec::kZlib;
    case Compression::kNone:
      break;
  }
  return formats::SniffedCodec::kNone;
}

/// A compressed file, or one of a format without a splitter: its one split is the whole file, read
/// by the format's FileOpener as the detected file it was.
Result<formats::RangeRecords> OpenWhole(const Split& split, const formats::FormatDescriptor& format,
                                        std::shared_ptr<const formats::FormatReadOptions> read_options,
                                        const SchemaPtr& data_schema) {
  if (split.compression != "none" && !format.reads_compressed_files()) {
    return Status::InvalidArgument("bad split: a " + std::string(format.name()) +
                                   " file cannot be read with compression " + split.compression)
        .WithFile(split.path);
  }
  if (split.unit != SplitUnit::kBytes || split.begin != 0 || split.end != split.file_size) {
    const std::string what = split.compression != "none" ? "a " + split.compression + " file"
                                                         : "a " + std::string(format.name()) + " file";
    return Status::InvalidArgument("split " + split.range().ToString() + " of " + what +
                                   ": such a file is read whole, as one split of bytes [0, " +
                                   std::to_string(split.file_size) + ")")
        .WithFile(split.path);
  }
  formats::FileToRead file;
  file.path = split.path;
  file.detected.format = &format;
  file.detected.rereadable = true;
  ASSIGN_OR_RETURN(file.detected.sniffed.codec, SniffedCodecOf(split));
  formats::RangeRecords out;
  ASSIGN_OR_RETURN(out.source, format.NewOpener(std::move(read_options))->Open(file, data_schema));
  return out;
}

}  // namespace

Result<formats::MappedFile> MapSplitFile(const Split& split, FileSystem& fs) {
  Result<std::shared_ptr<Buffer>> mapped = fs.MapFile(split.path);
  if (!mapped.ok()) return mapped.status().WithFile(split.path);
  if ((*mapped)->size() != split.file_size) {
    return Status::DataError("the file changed since the split was made (size " + std::to_string(split.file_size) +
                             " -> " + std::to_string((*mapped)->size()) + "): make the splits again")
        .WithFile(split.path);
  }
  return formats::MappedFile{split.path, *std::move(mapped)};
}

Result<formats::RangeRecords> OpenSplitRecords(const Split& split, const SchemaPtr& data_schema,
                                               const InputOptions& options) {
  const formats::FormatDescriptor* format = options.registry->FindByName(split.format);
  if (format == nullptr) return Status::InvalidArgument("bad split: unknown format '" + split.format + "'");
  ASSIGN_OR_RETURN(std::shared_ptr<const formats::FormatReadOptions> read_options, ReadOptionsFor(options, *format));
  const formats::FormatSplitter* splitter = format->splitter();
  if (split.compression != "none" || splitter == nullptr) {
    return OpenWhole(split, *format, std::move(read_options), data_schema);
  }
  ASSIGN_OR_RETURN(const formats::MappedFile file, MapSplitFile(split, *options.settings.file_system));
  return splitter->Open(file, split.range(), *read_options, data_schema);
}

}  // namespace recflow::dataset
