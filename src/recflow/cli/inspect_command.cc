// `recflow inspect`: reads everything once, reporting sizes, schema and feature statistics.
#include "recflow/cli/inspect_command.h"

#include <string>
#include <vector>

#include <fmt/core.h>

#include "recflow/cli/inspect_raster.h"
#include "recflow/cli/inspect_report_internal.h"
#include "recflow/cli/key_values.h"
#include "recflow/cli/tabular_inputs.h"

namespace recflow::cli {
namespace {

/// Observes every record of `input` with `inferrer`, filling its `report`.
Result<FileReport> InspectFile(FileReport report, const dataset::ResolvedInput& input, const Inputs& inputs,
                               example::SchemaInferrer* inferrer) {
  ASSIGN_OR_RETURN(auto file, InputFile::Open(input, inputs, /*warn=*/true));
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

/// Adds the counts and sizes of `file` to `total`.
void AddToTotal(const FileReport& file, FileReport* total) {
  total->records += file.records;
  total->file_bytes = (total->file_bytes < 0 || file.file_bytes < 0) ? -1 : total->file_bytes + file.file_bytes;
  total->decoded_bytes += file.decoded_bytes;
  total->corrupt_records += file.corrupt_records;
  total->undecodable_records += file.undecodable_records;
}

/// Reads every unit of `source`, counting and taking column statistics.
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

}  // namespace

Status RunInspect(const InspectFlags& flags, StdoutWriter* out) {
  // Rasters are described through GDAL, not read as records.
  ASSIGN_OR_RETURN(const bool rasters, AllRasters(flags.inputs.paths));
  if (rasters) {
    ASSIGN_OR_RETURN(raster::GdalConfig config, SplitKeyValues("--config", flags.config));
    return InspectRasters(flags.inputs.paths, config, flags.json, out);
  }
  if (!flags.config.empty()) return Status::InvalidArgument("--config: GDAL options apply to raster inputs only");
  // Detected once: standard input is only peeked here, then read once by what follows.
  ASSIGN_OR_RETURN(Inputs inputs, ResolveInputs(flags.inputs, flags.source));
  std::vector<FileReport> files = DetectionReports(inputs);
  ASSIGN_OR_RETURN(std::unique_ptr<Source> source,
                   OpenTabularInputs(inputs, /*pipes_as_source=*/false));
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
  example::SchemaInferrer inferrer(inputs.record_type);
  Report report;
  report.record_type = inputs.record_type;
  report.total.file_bytes = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    ASSIGN_OR_RETURN(FileReport file, InspectFile(std::move(files[i]), inputs.resolved.files[i], inputs, &inferrer));
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
