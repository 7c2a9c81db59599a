// inspect's writers: the record report and the Source report, each as JSON or as text tables.
#include <algorithm>

#include <fmt/core.h>

#include "recflow/cli/inspect_report_internal.h"

namespace recflow::cli {

namespace {

std::string OrDash(int64_t v) { return v >= 0 ? std::to_string(v) : "-"; }

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

}  // namespace

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

}  // namespace recflow::cli
