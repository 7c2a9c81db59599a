// inspect's detection reporting: a report per resolved input, how its format was decided, its JSON keys.
#include <filesystem>

#include "recflow/cli/inspect_report_internal.h"

namespace recflow::cli {

namespace {

/// The size of `path`; -1 for standard input and what has none.
int64_t FileBytes(const std::string& path) {
  std::error_code ec;
  const auto size = path == "-" ? 0 : std::filesystem::file_size(path, ec);
  return path == "-" || ec ? -1 : static_cast<int64_t>(size);
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

}  // namespace

std::string FormatShown(const FileReport& file) {
  const formats::ContentKind content = file.detected.sniffed.content;
  if (file.forced || content == formats::ContentKind::kUnknown || content == formats::ContentKind::kEmpty) {
    return std::string(file.detected.format->name());
  }
  return std::string(formats::ContentName(content));
}

void WriteDetectionJson(const FileReport& file, jsonl::JsonWriter* w) {
  const formats::Sniffed& sniffed = file.detected.sniffed;
  w->Key("format");
  w->String(file.detected.format->name());
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

std::vector<FileReport> DetectionReports(const Inputs& inputs) {
  std::vector<FileReport> reports;
  for (const dataset::ResolvedInput& input : inputs.resolved.files) {
    FileReport report;
    report.path = input.path;
    report.file_bytes = FileBytes(input.path);
    report.detected = input.detected;
    report.forced = inputs.resolved.forced != nullptr;
    report.compression = std::string(formats::CodecName(input.detected.sniffed.codec));
    reports.push_back(std::move(report));
  }
  return reports;
}

}  // namespace recflow::cli
