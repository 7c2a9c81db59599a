// Vocabulary files: line-oriented text on a FileSystem.
#include "recflow/ops/columns/vocabulary_file.h"

#include "recflow/columnar/value_formatting.h"
#include "recflow/columnar/value_parsing.h"

namespace recflow::ops {

Status WriteVocabularyFile(FileSystem& file_system, const std::string& path, const Vocabulary& vocab,
                           bool with_counts) {
  if (with_counts && vocab.counts().size() != vocab.values().size()) {
    return Status::InvalidArgument("vocabulary file " + path + ": the vocabulary has no counts");
  }
  std::string text;
  for (int64_t id = 0; id < vocab.size(); ++id) {
    const std::string& value = vocab.values()[static_cast<size_t>(id)];
    if (value.find_first_of("\r\n") != std::string::npos) {
      return Status::InvalidArgument("vocabulary value " + std::to_string(id) + " contains a line break").WithFile(path);
    }
    if (with_counts) {
      AppendInteger(vocab.counts()[static_cast<size_t>(id)], &text);
      text += ' ';
    }
    text += value;
    text += '\n';
  }
  return file_system.WriteSmallFile(path, text, /*sync=*/false);
}

Result<Vocabulary> ReadVocabularyFile(FileSystem& file_system, const std::string& path, bool with_counts) {
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> data, file_system.ReadWholeFile(path));
  std::string_view text = data->view();
  std::vector<std::string> values;
  std::vector<int64_t> counts;
  int64_t line = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view entry = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++line;
    if (entry.ends_with('\r')) entry.remove_suffix(1);
    if (with_counts) {
      const size_t space = entry.find(' ');
      int64_t count = 0;
      if (space == std::string_view::npos || !ParseInteger(entry.substr(0, space), &count) || count < 0) {
        return Status::DataError("vocabulary line " + std::to_string(line) + " does not start with a count and a space")
            .WithFile(path);
      }
      counts.push_back(count);
      entry.remove_prefix(space + 1);
    }
    values.emplace_back(entry);
  }
  auto vocab = Vocabulary::Make(std::move(values), std::move(counts));
  if (!vocab.ok()) return Status::DataError(vocab.status().message()).WithFile(path);
  return vocab;
}

}  // namespace recflow::ops
