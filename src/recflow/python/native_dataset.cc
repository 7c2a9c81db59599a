// NativeDataset: DetectInputs + OpenInputs once (on KeptMappings); each read a fresh Source (or the first one) exported
// as a C stream.
#include "recflow/python/native_dataset.h"

#include "recflow/core/local_filesystem.h"
#include "recflow/dataset/split_plan.h"
#include "recflow/dataset/split_source.h"
#include "recflow/pipeline/read_stream.h"
#include "recflow/python/kept_mappings.h"

namespace recflow::python {

Result<std::shared_ptr<NativeDataset>> NativeDataset::Open(const std::vector<std::string>& paths,
                                                           const dataset::InputSpec& spec) {
  std::shared_ptr<NativeDataset> opened(new NativeDataset());
  ASSIGN_OR_RETURN(opened->options_,
                   dataset::MakeInputOptions(spec, std::make_shared<KeptMappings>(LocalFileSystem::Instance())));
  ASSIGN_OR_RETURN(opened->inputs_, dataset::DetectInputs(paths, opened->options_.format,
                                                          *opened->options_.settings.file_system));
  ASSIGN_OR_RETURN(opened->unread_, dataset::OpenInputs(opened->inputs_, opened->options_));
  opened->schema_ = opened->unread_->schema();
  return opened;
}

Result<std::vector<std::string>> SplitLines(const dataset::ResolvedInputs& resolved, const dataset::InputOptions& read,
                                            int64_t target_bytes) {
  dataset::SplitOptions options = dataset::SplitOptions::Defaults();
  options.target_bytes = target_bytes;
  options.read = read;
  RETURN_NOT_OK(options.Validate());
  std::vector<dataset::SplitInput> inputs;
  for (const dataset::ResolvedInput& file : resolved.files) {
    ASSIGN_OR_RETURN(dataset::SplitInput input, dataset::SplitInputOf(file, options.read, *resolved.partition_schema));
    inputs.push_back(std::move(input));
  }
  ASSIGN_OR_RETURN(const std::vector<dataset::Split> splits, dataset::MakeSplits(inputs, options));
  std::vector<std::string> lines;
  lines.reserve(splits.size());
  for (const dataset::Split& split : splits) lines.push_back(dataset::SplitToJson(split));
  return lines;
}

Result<std::vector<std::string>> NativeDataset::Splits(int64_t target_bytes) const {
  return SplitLines(inputs_, options_, target_bytes);
}

Status NativeDataset::Read(int threads, ArrowArrayStream* out, StopSource stop) {
  std::unique_ptr<Source> source;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    source = std::move(unread_);
  }
  if (source == nullptr) {
    ASSIGN_OR_RETURN(source, dataset::OpenInputs(inputs_, options_));
  }
  return Stream(std::move(source), threads, out, std::move(stop));
}

Result<std::unique_ptr<Source>> NativeDataset::OpenSplits(const std::vector<std::string>& splits) const {
  std::vector<dataset::Split> parsed;
  parsed.reserve(splits.size());
  for (const std::string& line : splits) {
    ASSIGN_OR_RETURN(dataset::Split split, dataset::ParseSplit(line));
    parsed.push_back(std::move(split));
  }
  return dataset::OpenSplits(std::move(parsed), schema_, options_);
}

Status NativeDataset::ReadSplits(const std::vector<std::string>& splits, int threads, ArrowArrayStream* out,
                                 StopSource stop) const {
  ASSIGN_OR_RETURN(std::unique_ptr<Source> source, OpenSplits(splits));
  return Stream(std::move(source), threads, out, std::move(stop));
}

Status NativeDataset::Stream(std::shared_ptr<Source> source, int threads, ArrowArrayStream* out,
                             StopSource stop) const {
  ExecContext context = ExecContext::Defaults();
  context.threads = threads;
  context.file_system = options_.settings.file_system;
  const SchemaPtr schema = source->schema();
  return ExportRunStream(context, schema, pipeline::ReadIntoStream(std::move(source)), CStreamOptions::Defaults(),
                         out, std::move(stop));
}

}  // namespace recflow::python
