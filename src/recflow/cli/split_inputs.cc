// ReadSplitFlags and OpenSplitInputs: split texts parsed, the dataset schema settled once, the splits chained.
#include "recflow/cli/split_inputs.h"

#include <algorithm>

#include "recflow/core/io.h"
#include "recflow/dataset/split_source.h"

namespace recflow::cli {

namespace {

Status BadSplit(const std::string& where, const Status& st) {
  return Status::InvalidArgument(where + ": " + st.message());
}

/// The data columns of the splits' files: --schema's, else what reading them whole infers.
Result<SchemaPtr> DataSchema(const std::vector<dataset::Split>& splits, dataset::InputOptions options) {
  std::vector<std::string> paths;
  for (const dataset::Split& split : splits) {
    if (std::find(paths.begin(), paths.end(), split.path) == paths.end()) paths.push_back(split.path);
  }
  ASSIGN_OR_RETURN(options.format, options.registry->ParseInputFormat(splits.front().format));
  ASSIGN_OR_RETURN(std::unique_ptr<Source> whole, dataset::OpenInputs(paths, options));
  return whole->schema();
}

}  // namespace

Result<std::vector<dataset::Split>> ReadSplitFlags(const SplitFlags& flags) {
  std::vector<dataset::Split> splits;
  for (size_t i = 0; i < flags.splits.size(); ++i) {
    Result<dataset::Split> split = dataset::ParseSplit(flags.splits[i]);
    if (!split.ok()) return BadSplit("--split #" + std::to_string(i + 1), split.status());
    splits.push_back(*std::move(split));
  }
  if (!flags.splits_from.empty()) {
    Result<std::shared_ptr<Buffer>> read = ReadWholeFile(flags.splits_from);
    if (!read.ok()) return read.status().WithFile(flags.splits_from);
    const std::string_view text = (*read)->view();
    size_t line = 0;
    for (size_t begin = 0; begin < text.size();) {
      size_t end = text.find('\n', begin);
      if (end == std::string::npos) end = text.size();
      ++line;
      const std::string_view row = text.substr(begin, end - begin);
      begin = end + 1;
      if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      Result<dataset::Split> split = dataset::ParseSplit(row);
      if (!split.ok()) return BadSplit("--splits-from " + flags.splits_from + " line " + std::to_string(line), split.status());
      splits.push_back(*std::move(split));
    }
  }
  if (splits.empty()) return Status::InvalidArgument("--split / --splits-from name no split");
  return splits;
}

Result<std::unique_ptr<Source>> OpenSplitInputs(const std::vector<dataset::Split>& splits,
                                                const dataset::InputOptions& options) {
  ASSIGN_OR_RETURN(const SchemaPtr partition_schema, dataset::PartitionSchemaOf(splits.front()));
  for (const dataset::Split& split : splits) {
    ASSIGN_OR_RETURN(const SchemaPtr partitions, dataset::PartitionSchemaOf(split));
    if (split.format != splits.front().format || !partitions->Equals(*partition_schema)) {
      return Status::InvalidArgument("the splits read together must have one format and the same partition columns: " +
                                     split.path + " is " + split.format + " with " + partitions->ToString() + ", " +
                                     splits.front().path + " is " + splits.front().format + " with " +
                                     partition_schema->ToString());
    }
  }
  ASSIGN_OR_RETURN(const SchemaPtr data_schema, DataSchema(splits, options));
  std::vector<FieldPtr> fields = data_schema->fields();
  for (const FieldPtr& field : partition_schema->fields()) fields.push_back(field);
  return dataset::OpenSplits(splits, Schema::Make(std::move(fields)), options);
}

}  // namespace recflow::cli
