// SplitReadOptionsOf: each splittable format's typed read options, taken from what its descriptor parsed for a read.
#include "recflow/dataset/split_source.h"

#include "recflow/formats/builtin/builtin_formats.h"

namespace recflow::dataset {

namespace {

/// The options of the registered format `name` as its descriptor parsed them for `options`
/// (parsed from options.settings when the read holds none), held as `T`.
template <typename T>
Result<T> TypedOptionsOf(const InputOptions& options, std::string_view name) {
  const formats::FormatDescriptor* format = formats::BuiltinFormats().FindByName(name);
  if (format == nullptr) return Status::Internal("the format registry has no '" + std::string(name) + "'");
  std::shared_ptr<const formats::FormatReadOptions> parsed;
  if (const auto it = options.read_options.find(format); it != options.read_options.end()) {
    parsed = it->second;
  } else {
    ASSIGN_OR_RETURN(parsed, format->ParseReadOptions(options.settings));
  }
  const auto* typed = dynamic_cast<const formats::TypedReadOptions<T>*>(parsed.get());
  if (typed == nullptr) {
    return Status::Internal("the '" + std::string(name) + "' format's read options are not of the type splits read");
  }
  return typed->options();
}

}  // namespace

Result<SplitReadOptions> SplitReadOptionsOf(const InputOptions& options) {
  SplitReadOptions read = SplitReadOptions::Defaults();
  ASSIGN_OR_RETURN(read.csv, TypedOptionsOf<csv::ReadOptions>(options, "csv"));
  ASSIGN_OR_RETURN(read.jsonl, TypedOptionsOf<jsonl::ReadOptions>(options, "jsonl"));
  ASSIGN_OR_RETURN(read.tfrecord, TypedOptionsOf<tfrecord::SourceOptions>(options, "tfrecord"));
  ASSIGN_OR_RETURN(read.avro, TypedOptionsOf<avro::ReadOptions>(options, "avro"));
  return read;
}

}  // namespace recflow::dataset
