// What `recflow inspect` reports (per file, totals, schema, statistics) and how it is written (private to cli).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "recflow/cli/column_stats.h"
#include "recflow/cli/inputs.h"
#include "recflow/formats/example/schema_inference.h"
#include "recflow/formats/jsonl/json_writer.h"

namespace recflow::cli {

/// What one input file held.
struct FileReport {
  std::string path;
  formats::DetectedFile detected;
  bool forced = false;  // --from named the format
  int64_t records = 0;
  int64_t file_bytes = -1;  // -1: unknown (stdin)
  int64_t decoded_bytes = 0;
  std::string compression;
  int64_t corrupt_records = 0;      // framing faults skipped by the reader
  int64_t undecodable_records = 0;  // records whose payload did not parse
};

/// The report on TFRecord inputs read record by record.
struct Report {
  example::RecordType record_type;
  std::vector<FileReport> files;
  FileReport total;
  SchemaPtr schema;
  std::vector<example::FeatureStats> stats;
};

/// The report on inputs read through a Source: files, totals, schema and column statistics.
struct TableReport {
  std::vector<FileReport> files;  // path, file_bytes and detection only
  FileReport total;               // records, file_bytes, decoded_bytes; undecodable = skipped
  SchemaPtr schema;
  std::vector<ColumnStat> columns;
};

/// A report per resolved input with its path, size and what detection found, before anything
/// is read.
std::vector<FileReport> DetectionReports(const Inputs& inputs);

/// The format column of the tables: what the content is, or the format --from named.
std::string FormatShown(const FileReport& file);

/// The detection keys of a file's JSON object: format, content, compression, detected_by
/// ("--from", "content", "text" or "suffix"), evidence and, for Arrow IPC streams,
/// arrow_stream ("0.15+" or "pre-0.15").
void WriteDetectionJson(const FileReport& file, jsonl::JsonWriter* w);

/// `report` as one JSON object (files, total, schema, features) and a newline.
void WriteJson(const Report& report, std::string* out);
/// `report` as a table of files, then the schema with each feature's statistics.
void WriteTable(const Report& report, std::string* out);
/// `report` as one JSON object (files, total, columns) and a newline.
void WriteTableJson(const TableReport& report, std::string* out);
/// `report` as a table of files, the totals, then the schema with each column's statistics.
void WriteTableText(const TableReport& report, std::string* out);

}  // namespace recflow::cli
