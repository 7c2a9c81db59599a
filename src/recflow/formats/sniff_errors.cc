// CheckReadable / CheckReadableCodec: the error for a format or codec recflow does not read, with what to do instead.
#include <string>

#include "recflow/formats/sniff.h"

namespace recflow::formats {

namespace {

/// What to do with a file of a format recflow does not read.
std::string_view ForeignAdvice(ContentKind content) {
  switch (content) {
    case ContentKind::kParquet:
    case ContentKind::kOrc:
      return "convert it to Arrow IPC (Feather v2), CSV or JSON Lines first, e.g. with pyarrow or duckdb";
    case ContentKind::kFeatherV1:
      return "rewrite it as Feather v2 (Arrow IPC file), e.g. with pyarrow.feather.write_feather";
    case ContentKind::kTiff:
    case ContentKind::kBigTiff:
      return "rasters are not record files: `recflow inspect` describes them, a pipeline's read_raster step reads them "
             "(docs/raster.md)";
    case ContentKind::kPng:
    case ContentKind::kJpeg:
    case ContentKind::kGif:
      return "images are not record files; list their paths in a CSV and use a pipeline's load_file step";
    default:
      return "export the records as CSV, JSON Lines, Avro, TFRecord or Arrow IPC first";
  }
}

}  // namespace

Status CheckReadableCodec(const std::string& path, const Sniffed& sniffed) {
  if (!ReadableCompression(sniffed.codec)) {
    const std::string codec(CodecName(sniffed.codec));
    return Status::DataError(codec + "-compressed input (" + sniffed.evidence + "): recflow does not read " + codec +
                             "; decompress it first, or pipe it in: " + codec + " -dc FILE | recflow ... -")
        .WithFile(path);
  }
  return Status::OK();
}

Status CheckReadable(const std::string& path, const Sniffed& sniffed) {
  RETURN_NOT_OK(CheckReadableCodec(path, sniffed));
  if (!IsForeign(sniffed.content)) return Status::OK();
  const std::string name(ContentName(sniffed.content));
  const std::string evidence = sniffed.evidence.empty() ? "by its name" : sniffed.evidence;
  return Status::DataError(name + " (" + evidence + "): recflow does not read it; " +
                           std::string(ForeignAdvice(sniffed.content)))
      .WithFile(path);
}

}  // namespace recflow::formats
