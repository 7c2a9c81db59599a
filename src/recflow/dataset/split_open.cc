// OpenSplitRecords: each format's record boundaries applied to a mapped file, then its own Source.
#include <utility>

#include "recflow/core/compression.h"
#include "recflow/dataset/split_open_internal.h"
#include "recflow/formats/arrow_ipc/arrow_source.h"
#include "recflow/formats/avro/avro_source.h"
#include "recflow/formats/avro/block_boundary.h"
#include "recflow/formats/csv/csv_source.h"
#include "recflow/formats/csv/row_boundary.h"
#include "recflow/formats/jsonl/jsonl_source.h"
#include "recflow/formats/jsonl/line_boundary.h"

namespace recflow::dataset {

namespace {

std::string RangeText(const Split& split) {
  return std::string(SplitUnitName(split.unit)) + " [" + std::to_string(split.begin) + ", " +
         std::to_string(split.end) + ")";
}

/// The whole file, decompressed as the split says, for a compressed text file.
Result<std::unique_ptr<InputStream>> OpenWholeText(const Split& split) {
  ASSIGN_OR_RETURN(const Compression codec, ParseCompression(split.compression));
  ASSIGN_OR_RETURN(std::unique_ptr<InputStream> file, FileInputStream::Open(split.path));
  return MakeDecompressingStream(codec, std::move(file));
}

/// The file's bytes [begin, end) plus its first `head_size` bytes in front, as a stream.
std::unique_ptr<SplicedInputStream> Splice(const std::shared_ptr<Buffer>& data, const Split& split, int64_t head_size,
                                           int64_t begin, int64_t end) {
  if (begin <= head_size) return std::make_unique<SplicedInputStream>(data, split.path, 0, 0, std::max(end, head_size));
  return std::make_unique<SplicedInputStream>(data, split.path, head_size, begin, end);
}

/// DataError unless `at` is where a CSV row starts (0, the end, or just after an LF).
Status CheckRowStart(const Buffer& data, const Split& split, int64_t at) {
  if (at == 0 || at == data.size() || data.data()[at - 1] == '\n') return Status::OK();
  return Status::DataError("CSV split " + RangeText(split) + " does not begin and end at row starts (byte " +
                           std::to_string(at - 1) +
                           " is not an LF): a quoted field may hold a newline, so only the split boundaries "
                           "`recflow splits` (MakeSplits) found by reading the file from its start are valid")
      .WithFile(split.path)
      .WithOffset(at);
}

Result<SplitRecords> OpenCsv(const Split& split, const std::shared_ptr<Buffer>& data, csv::ReadOptions options) {
  RETURN_NOT_OK(CheckRowStart(*data, split, split.begin));
  RETURN_NOT_OK(CheckRowStart(*data, split, split.end));
  const int64_t header_end = options.header ? csv::HeaderRowEnd(data->view(), options.dialect) : 0;
  auto stream = Splice(data, split, header_end, split.begin, split.end);
  SplitRecords out;
  out.map = stream->map();
  ASSIGN_OR_RETURN(out.source, csv::OpenCsvSource(std::move(stream), options));
  return out;
}

Result<SplitRecords> OpenAvro(const Split& split, const std::shared_ptr<Buffer>& data, const avro::ReadOptions& options) {
  ASSIGN_OR_RETURN(const avro::ContainerLayout layout, avro::ReadContainerLayout(data, split.path));
  const int64_t begin = avro::BlockStartAtOrAfter(*data, layout, split.begin);
  const int64_t end = std::max(begin, avro::BlockStartAtOrAfter(*data, layout, split.end));
  auto stream = Splice(data, split, layout.header_size, begin, end);
  SplitRecords out;
  out.map = stream->map();
  ASSIGN_OR_RETURN(out.source, avro::OpenAvroSource(std::move(stream), options));
  return out;
}

Result<SplitRecords> OpenUncompressed(const Split& split, const SchemaPtr& data_schema, const SplitReadOptions& options) {
  Result<std::shared_ptr<Buffer>> mapped = Buffer::MapFile(split.path);
  if (!mapped.ok()) return mapped.status().WithFile(split.path);
  std::shared_ptr<Buffer> data = *std::move(mapped);
  if (data->size() != split.file_size) {
    return Status::DataError("the file changed since the split was made (size " + std::to_string(split.file_size) +
                             " -> " + std::to_string(data->size()) + "): make the splits again")
        .WithFile(split.path);
  }
  if (split.end > data->size()) {
    return Status::InvalidArgument("split " + RangeText(split) + " ends beyond the file's " +
                                   std::to_string(data->size()) + " bytes")
        .WithFile(split.path);
  }
  SplitRecords out;
  if (split.format == "tfrecord") {
    tfrecord::SourceOptions o = options.tfrecord;
    o.schema = data_schema;
    ASSIGN_OR_RETURN(auto reader,
                     tfrecord::RecordReader::FromBufferRange(data, split.path, split.begin, split.end, o.reader));
    ASSIGN_OR_RETURN(out.source, tfrecord::OpenTfrecordSource(std::move(reader), o));
  } else if (split.format == "jsonl") {
    jsonl::ReadOptions o = options.jsonl;
    o.schema = data_schema;
    const int64_t begin = jsonl::LineStartAtOrAfter(data->view(), split.begin);
    const int64_t end = std::max(begin, jsonl::LineStartAtOrAfter(data->view(), split.end));
    auto stream = std::make_unique<SplicedInputStream>(data, split.path, 0, begin, end);
    out.map = stream->map();
    ASSIGN_OR_RETURN(out.source, jsonl::OpenJsonlSource(std::move(stream), o));
  } else if (split.format == "csv") {
    csv::ReadOptions o = options.csv;
    o.schema = data_schema;
    return OpenCsv(split, data, std::move(o));
  } else if (split.format == "avro") {
    return OpenAvro(split, data, options.avro);
  } else {
    return Status::InvalidArgument("bad split: unknown format '" + split.format + "'");
  }
  return out;
}

/// A compressed file or an Arrow stream: its one split is the whole file.
Result<SplitRecords> OpenWhole(const Split& split, const SchemaPtr& data_schema, const SplitReadOptions& options) {
  if (split.unit != SplitUnit::kBytes || split.begin != 0 || split.end != split.file_size) {
    return Status::InvalidArgument("split " + RangeText(split) + " of a " +
                                   (split.format == "arrow" ? std::string("Arrow IPC stream") : split.compression + " file") +
                                   ": such a file is read whole, as one split of bytes [0, " +
                                   std::to_string(split.file_size) + ")")
        .WithFile(split.path);
  }
  SplitRecords out;
  if (split.format == "arrow") {
    ASSIGN_OR_RETURN(out.source, arrow_ipc::OpenArrowSource(split.path, formats::ContentKind::kArrowStream));
  } else if (split.format == "tfrecord") {
    tfrecord::SourceOptions o = options.tfrecord;
    o.schema = data_schema;
    ASSIGN_OR_RETURN(o.reader.compression, ParseCompression(split.compression));
    o.reader.compression_auto = false;
    ASSIGN_OR_RETURN(out.source, tfrecord::OpenTfrecordSource(split.path, o));
  } else if (split.format == "csv") {
    csv::ReadOptions o = options.csv;
    o.schema = data_schema;
    ASSIGN_OR_RETURN(auto stream, OpenWholeText(split));
    ASSIGN_OR_RETURN(out.source, csv::OpenCsvSource(std::move(stream), o));
  } else if (split.format == "jsonl") {
    jsonl::ReadOptions o = options.jsonl;
    o.schema = data_schema;
    ASSIGN_OR_RETURN(auto stream, OpenWholeText(split));
    ASSIGN_OR_RETURN(out.source, jsonl::OpenJsonlSource(std::move(stream), o));
  } else {
    return Status::InvalidArgument("bad split: a " + split.format + " file cannot be read with compression " +
                                   split.compression);
  }
  return out;
}

}  // namespace

Result<SplitRecords> OpenSplitRecords(const Split& split, const SchemaPtr& data_schema,
                                      const SplitReadOptions& options) {
  if (split.unit == SplitUnit::kBatches) {
    if (split.format != "arrow" || split.compression != "none") {
      return Status::InvalidArgument("bad split: only Arrow IPC files are split by record batches");
    }
    SplitRecords out;
    ASSIGN_OR_RETURN(out.source, arrow_ipc::OpenArrowFileBatches(split.path, split.begin, split.end));
    return out;
  }
  if (split.compression != "none" || split.format == "arrow") return OpenWhole(split, data_schema, options);
  return OpenUncompressed(split, data_schema, options);
}

}  // namespace recflow::dataset
