// `recflow inspect`: reads everything once, reporting sizes, schema and feature statistics.
#include "recflow/cli/inspect_command.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "recflow/cli/column_stats.h"
#include "recflow/cli/tabular_inputs.h"
#include "recflow/dataset/inputs.h"
#include "recflow/formats/example/schema_inference.h"
#include "recflow/formats/jsonl/json_writer.h"
#include "recflow/formats/sniff.h"
#include "recflow/pipeline/input_source.h"

namespace recflow::cli {
namespace {

/// What one input file held.
struct FileReport {
  std::string path;
  pipeline::DetectedInput detected;
  bool forced = false;  // --from named the format
  int64_t records = 0;
  int64_t file_bytes = -1;  // -1: unknown (stdin)
  int64_t decoded_bytes = 0;
  std::string compression;
  int64_t corrupt_records = 0;      // framing faults skipped by the reader
  int64_t undecodable_records = 0;  // records whose payload did not parse
};

/// The whole report.
struct Report {
  example::RecordType record_type;
  std::vector<FileReport> files;
  FileReport total;
  SchemaPtr schema;
  std::vector<example::FeatureStats> stats;
};

/// The size of `path`; -1 for standard input and what has none.
int64_t FileBytes(const std::string& path) {
  std::error_code ec;
  const auto size = path == "-" ? 0 : std::filesystem::file_size(path, ec);
  return path == "-" || ec ? -1 : static_cast<int64_t>(size);
}

/// A report per input with its path, size and what detection found (before anything is read:
/// standard input is only peeked).
Result<std::vector<FileReport>> DetectFiles(const InspectFlags& flags) {
  ASSIGN_OR_RETURN(pipeline::InputFormat format, pipeline::ParseInputFormat(flags.source.from));
  ASSIGN_OR_RETURN(std::vector<std::string> files, ExpandInputs(flags.inputs.paths));
  std::vector<FileReport> reports;
  for (const std::string& path : files) {
    FileReport report;
    report.path = path;
    report.file_bytes = FileBytes(path);
    ASSIGN_OR_RETURN(report.detected, pipeline::DetectInputFormat(path, format));
    report.forced = format != pipeline::InputFormat::kAuto;
    report.compression = std::string(formats::CodecName(report.detected.sniffed.codec));
    reports.push_back(std::move(report));
  }
  return reports;
}

/// How the format was decided: "--from", "content", "text" (a CSV/JSON Lines guess), "suffix".
std::string_view DetectedBy(const FileReport& file) {
  if (file.forced) return "--from";
  switch (file.detected.sniffed.certainty) {
    case formats::Certainty::kChecked: return "content";
    case formats::Certainty::kGuess: return "text";
    case formats::Certainty::kSuffix: return "suffix";
    case formats::Certainty::kNone: break;
  }
  return "none";
}

/// The format column of the tables: what the content is, or the format --from named.
std::string FormatShown(const FileReport& file) {
  const formats::ContentKind content = file.detected.sniffed.content;
  if (file.forced || content == formats::ContentKind::kUnknown || content == formats::ContentKind::kEmpty) {
    return std::string(pipeline::InputFormatName(file.detected.format));
  }
  return std::string(formats::ContentName(content));
}

/// The detection keys of a file's JSON object: format, content, compression, detected_by,
/// evidence and, for Arrow IPC streams, arrow_stream ("0.15+" or "pre-0.15").
void WriteDetectionJson(const FileReport& file, jsonl::JsonWriter* w) {
  const formats::Sniffed& sniffed = file.detected.sniffed;
  w->Key("format");
  w->String(pipeline::InputFormatName(file.detected.format));
  w->Key("content");
  w->String(formats::ContentName(sniffed.content));
  w->Key("compression");
  w->String(file.compression);
  w->Key("detected_by");
  w->String(DetectedBy(file));
  w->Key("evidence");
  w->String(sniffed.evidence);
  if (sniffed.content == formats::ContentKind::kArrowStream ||
      sniffed.content == formats::ContentKind::kArrowLegacyStream) {
    w->Key("arrow_stream");
    w->String(sniffed.content == formats::ContentKind::kArrowStream ? "0.15+" : "pre-0.15");
  }
}

Result<FileReport> InspectFile(FileReport report, const Inputs& inputs, example::SchemaInferrer* inferrer) {
  const std::string& path = report.path;
  ASSIGN_OR_RETURN(auto file, InputFile::Open(path, inputs, /*warn=*/true));
  std::string_view record;
  while (true) {
    ASSIGN_OR_RETURN(bool more, file->Next(&record));
    if (!more) break;
    Status st = inferrer->Observe(record);
    if (!st.ok()) {
      if (!inputs.reader_options.skip_corrupt) return file->Decorate(st);
      Warn(file->Decorate(st));
      ++report.undecodable_records;
      continue;
    }
    ++report.records;
  }
  report.decoded_bytes = file->reader().bytes_read();
  report.compression = std::string(CompressionName(file->reader().compression()));
  report.corrupt_records = file->reader().corrupt_records();
  return report;
}

void AddToTotal(const FileReport& file, FileReport* total) {
  total->records += file.records;
  total->file_bytes = (total->file_bytes < 0 || file.file_bytes < 0) ? -1 : total->file_bytes + file.file_bytes;
  total->decoded_bytes += file.decoded_bytes;
  total->corrupt_records += file.corrupt_records;
  total->undecodable_records += file.undecodable_records;
}

std::string KindOf(const Field& field, example::RecordType type) {
  if (type != example::RecordType::kSequenceExample) return "feature";
  auto feature_list = example::IsFeatureListField(field);
  return feature_list.ok() && *feature_list ? "feature_list" : "context";
}

void WriteFileJson(const FileReport& file, bool with_path, jsonl::JsonWriter* w) {
  w->BeginObject();
  if (with_path) {
    w->Key("path");
    w->String(file.path);
  }
  w->Key("records");
  w->Int(file.records);
  w->Key("file_bytes");
  if (file.file_bytes >= 0) {
    w->Int(file.file_bytes);
  } else {
    w->Null();
  }
  w->Key("decoded_bytes");
  w->Int(file.decoded_bytes);
  if (with_path) WriteDetectionJson(file, w);
  w->Key("corrupt_records");
  w->Int(file.corrupt_records);
  w->Key("undecodable_records");
  w->Int(file.undecodable_records);
  w->EndObject();
}

void WriteJson(const Report& report, std::string* out) {
  jsonl::JsonWriter w(out);
  w.BeginObject();
  w.Key("record_type");
  w.String(example::RecordTypeName(report.record_type));
  w.Key("files");
  w.BeginArray();
  for (const auto& file : report.files) WriteFileJson(file, /*with_path=*/true, &w);
  w.EndArray();
  w.Key("total");
  WriteFileJson(report.total, /*with_path=*/false, &w);
  w.Key("schema");
  w.BeginArray();
  for (const auto& field : report.schema->fields()) {
    w.BeginObject();
    w.Key("name");
    w.String(field->name());
    w.Key("type");
    w.String(field->type()->ToString());
    w.Key("nullable");
    w.Bool(field->nullable());
    w.Key("kind");
    w.String(KindOf(*field, report.record_type));
    w.EndObject();
  }
  w.EndArray();
  w.Key("features");
  w.BeginArray();
  for (const auto& s : report.stats) {
    w.BeginObject();
    w.Key("name");
    w.String(s.name);
    w.Key("feature_list");
    w.Bool(s.feature_list);
    w.Key("present");
    w.Int(s.present);
    w.Key("missing");
    w.Int(s.missing);
    w.Key("kindless");
    w.Int(s.kindless);
    w.Key("min_length");
    s.min_length >= 0 ? w.Int(s.min_length) : w.Null();
    w.Key("max_length");
    s.max_length >= 0 ? w.Int(s.max_length) : w.Null();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  out->push_back('\n');
}

std::string OrDash(int64_t v) { return v >= 0 ? std::to_string(v) : "-"; }

void WriteTable(const Report& report, std::string* out) {
  size_t path_width = 5;
  for (const auto& file : report.files) path_width = std::max(path_width, file.path.size());
  const std::string row_format =
      "{:<" + std::to_string(path_width) + "}  {:<8}  {:>10}  {:>14}  {:>14}  {:<11}  {:>7}\n";
  auto row = [&](const FileReport& f, const std::string& name, const std::string& format,
                 const std::string& compression) {
    out->append(fmt::format(fmt::runtime(row_format), name, format, f.records, OrDash(f.file_bytes),
                            f.decoded_bytes, compression, f.corrupt_records + f.undecodable_records));
  };
  out->append(fmt::format(fmt::runtime(row_format), "FILE", "FORMAT", "RECORDS", "FILE BYTES", "DECODED BYTES",
                          "COMPRESSION", "CORRUPT"));
  for (const auto& file : report.files) row(file, file.path, FormatShown(file), file.compression);
  if (report.files.size() > 1) row(report.total, "total", "", "");

  out->append(fmt::format("\nschema ({}, inferred from all {} records):\n", example::RecordTypeName(report.record_type),
                          report.total.records));
  size_t name_width = 7, type_width = 4;
  for (const auto& field : report.schema->fields()) {
    name_width = std::max(name_width, field->name().size());
    type_width = std::max(type_width, field->type()->ToString().size() + (field->nullable() ? 0 : 9));
  }
  // The KIND column (context / feature_list) only means something for SequenceExamples.
  const bool show_kind = report.record_type == example::RecordType::kSequenceExample;
  const std::string feature_format = "  {:<" + std::to_string(name_width) + "}  {:<" + std::to_string(type_width) +
                                     "}  " + (show_kind ? "{:<14}" : "{}") + "{:>9}  {:>9}  {:>9}  {:>7}  {:>7}\n";
  auto feature_row = [&](const std::string& name, const std::string& type, const std::string& kind,
                         const std::string& present, const std::string& missing, const std::string& kindless,
                         const std::string& min_length, const std::string& max_length) {
    out->append(fmt::format(fmt::runtime(feature_format), name, type, show_kind ? kind : "", present, missing,
                            kindless, min_length, max_length));
  };
  feature_row("FEATURE", "TYPE", "KIND", "PRESENT", "MISSING", "KINDLESS", "MIN LEN", "MAX LEN");
  const auto& fields = report.schema->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    const auto& field = *fields[i];
    const std::string type = field.type()->ToString() + (field.nullable() ? "" : " not null");
    const std::string kind = KindOf(field, report.record_type);
    if (i < report.stats.size()) {
      const auto& s = report.stats[i];
      feature_row(field.name(), type, kind, std::to_string(s.present), std::to_string(s.missing),
                  std::to_string(s.kindless), OrDash(s.min_length), OrDash(s.max_length));
    } else {
      feature_row(field.name(), type, kind, "-", "-", "-", "-", "-");
    }
  }
}

/// The report on inputs read through a Source: files, totals, schema and column statistics.
struct TableReport {
  std::vector<FileReport> files;  // path and file_bytes only
  FileReport total;               // records, file_bytes, decoded_bytes; undecodable = skipped
  SchemaPtr schema;
  std::vector<ColumnStat> columns;
};

Result<TableReport> InspectSource(Source* source, std::vector<FileReport> files) {
  TableReport report;
  report.total.file_bytes = 0;
  for (const FileReport& file : files) {
    report.total.file_bytes = report.total.file_bytes < 0 || file.file_bytes < 0 ? -1
                                                                                 : report.total.file_bytes + file.file_bytes;
  }
  report.files = std::move(files);
  report.schema = source->schema();
  ColumnStats stats(*report.schema);
  int64_t seen = 0;
  while (true) {
    ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, NextSourceUnit(*source));
    if (unit == nullptr) break;
    report.total.decoded_bytes += unit->input_bytes();
    Result<DecodedUnit> decoded = DecodeUnit(*unit);
    if (!decoded.ok()) return decoded.status().RebaseRecord(seen);
    for (const SkippedRecord& record : decoded->skipped) Warn(record.error.RebaseRecord(seen));
    report.total.undecodable_records += static_cast<int64_t>(decoded->skipped.size());
    report.total.records += decoded->batch->num_rows();
    seen += decoded->input_records;
    stats.Observe(*decoded->batch);
  }
  report.columns = stats.stats();
  return report;
}

void WriteTableJson(const TableReport& report, std::string* out) {
  jsonl::JsonWriter w(out);
  w.BeginObject();
  w.Key("files");
  w.BeginArray();
  for (const FileReport& file : report.files) {
    w.BeginObject();
    w.Key("path");
    w.String(file.path);
    w.Key("file_bytes");
    file.file_bytes >= 0 ? w.Int(file.file_bytes) : w.Null();
    WriteDetectionJson(file, &w);
    w.EndObject();
  }
  w.EndArray();
  w.Key("total");
  w.BeginObject();
  w.Key("records");
  w.Int(report.total.records);
  w.Key("skipped_records");
  w.Int(report.total.undecodable_records);
  w.Key("file_bytes");
  report.total.file_bytes >= 0 ? w.Int(report.total.file_bytes) : w.Null();
  w.Key("decoded_bytes");
  w.Int(report.total.decoded_bytes);
  w.EndObject();
  w.Key("columns");
  w.BeginArray();
  for (size_t i = 0; i < report.columns.size(); ++i) {
    const Field& field = *report.schema->field(static_cast<int>(i));
    const ColumnStat& stat = report.columns[i];
    w.BeginObject();
    w.Key("name");
    w.String(field.name());
    w.Key("type");
    w.String(field.type()->ToString());
    w.Key("nullable");
    w.Bool(field.nullable());
    w.Key("nulls");
    w.Int(stat.nulls);
    w.Key("min_length");
    stat.min_length >= 0 ? w.Int(stat.min_length) : w.Null();
    w.Key("max_length");
    stat.max_length >= 0 ? w.Int(stat.max_length) : w.Null();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  out->push_back('\n');
}

void WriteTableText(const TableReport& report, std::string* out) {
  size_t path_width = 5;
  for (const FileReport& file : report.files) path_width = std::max(path_width, file.path.size());
  size_t format_width = 6;
  for (const FileReport& file : report.files) format_width = std::max(format_width, FormatShown(file).size());
  const std::string row_format =
      "{:<" + std::to_string(path_width) + "}  {:<" + std::to_string(format_width) + "}  {:<11}  {:>14}\n";
  out->append(fmt::format(fmt::runtime(row_format), "FILE", "FORMAT", "COMPRESSION", "FILE BYTES"));
  for (const FileReport& file : report.files) {
    out->append(
        fmt::format(fmt::runtime(row_format), file.path, FormatShown(file), file.compression, OrDash(file.file_bytes)));
  }
  out->append(fmt::format("\n{} records, {} skipped, {} bytes decoded\n", report.total.records,
                          report.total.undecodable_records, report.total.decoded_bytes));
  size_t name_width = 6, type_width = 4;
  for (const FieldPtr& field : report.schema->fields()) {
    name_width = std::max(name_width, field->name().size());
    type_width = std::max(type_width, field->type()->ToString().size() + (field->nullable() ? 0 : 9));
  }
  const std::string column_format =
      "  {:<" + std::to_string(name_width) + "}  {:<" + std::to_string(type_width) + "}  {:>9}  {:>7}  {:>7}\n";
  out->append("\nschema:\n");
  out->append(fmt::format(fmt::runtime(column_format), "COLUMN", "TYPE", "NULLS", "MIN LEN", "MAX LEN"));
  for (size_t i = 0; i < report.columns.size(); ++i) {
    const Field& field = *report.schema->field(static_cast<int>(i));
    const ColumnStat& stat = report.columns[i];
    out->append(fmt::format(fmt::runtime(column_format), field.name(),
                            field.type()->ToString() + (field.nullable() ? "" : " not null"), stat.nulls,
                            OrDash(stat.min_length), OrDash(stat.max_length)));
  }
}

}  // namespace

Status RunInspect(const InspectFlags& flags, StdoutWriter* out) {
  // Detected first: standard input is only peeked here, then read once by what follows.
  ASSIGN_OR_RETURN(std::vector<FileReport> files, DetectFiles(flags));
  ASSIGN_OR_RETURN(std::unique_ptr<Source> source,
                   OpenTabularInputs(flags.inputs, flags.source, /*stdin_as_source=*/false));
  if (source != nullptr) {
    ASSIGN_OR_RETURN(TableReport report, InspectSource(source.get(), std::move(files)));
    if (flags.json) {
      WriteTableJson(report, out->buffer());
    } else {
      WriteTableText(report, out->buffer());
    }
    RETURN_NOT_OK(out->Flush());
    if (flags.inputs.skip_corrupt) {
      fmt::print(stderr, "recflow: {} corrupt record(s) skipped\n", report.total.undecodable_records);
    }
    return Status::OK();
  }
  ASSIGN_OR_RETURN(Inputs inputs, ResolveInputs(flags.inputs, flags.source));
  example::SchemaInferrer inferrer(inputs.record_type);
  Report report;
  report.record_type = inputs.record_type;
  report.total.file_bytes = 0;
  for (FileReport& detected : files) {
    ASSIGN_OR_RETURN(FileReport file, InspectFile(std::move(detected), inputs, &inferrer));
    AddToTotal(file, &report.total);
    report.files.push_back(std::move(file));
  }
  report.schema = inferrer.Finish();
  report.stats = inferrer.stats();
  if (flags.json) {
    WriteJson(report, out->buffer());
  } else {
    WriteTable(report, out->buffer());
  }
  RETURN_NOT_OK(out->Flush());
  if (inputs.reader_options.skip_corrupt) {
    fmt::print(stderr, "recflow: {} corrupt record(s) skipped\n",
               report.total.corrupt_records + report.total.undecodable_records);
  }
  return Status::OK();
}

}  // namespace recflow::cli
