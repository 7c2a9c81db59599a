// FormatRegistry: registration with clash checks, lookups by word, content and suffix, and input detection.
#include "recflow/formats/registry/format_registry.h"

#include <algorithm>

namespace recflow::formats {

namespace {

template <typename T>

bool Contains(std::span<const T> values, const T& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::string Joined(const std::vector<std::string_view>& words) {
  std::string list;
  for (std::string_view word : words) list += (list.empty() ? "" : ", ") + std::string(word);
  return list;
}

/// True when `path` names a regular file on `fs` (a symlink followed); false for "-" and on errors.
bool IsRegularFile(FileSystem& fs, const std::string& path) {
  if (path == "-") return false;
  const Result<FileInfo> info = fs.GetTargetInfo(path);
  return info.ok() && info->type == FileType::kFile;
}

}  // namespace

Status FormatRegistry::Register(std::unique_ptr<const FormatDescriptor> format) {
  const std::string name(format->name());
  auto clash = [&name](std::string_view what, std::string_view taken_by) {
    return Status::AlreadyExists("format " + name + ": " + std::string(what) + " is taken by format " +
                                 std::string(taken_by));
  };
  std::vector<std::string_view> words{format->name()};
  words.insert(words.end(), format->aliases().begin(), format->aliases().end());
  for (std::string_view word : words) {
    if (const FormatDescriptor* other = FindByName(word)) return clash("the word '" + std::string(word) + "'", other->name());
  }
  for (std::string_view word : format->output_names()) {
    if (const FormatDescriptor* other = FindOutput(word)) {
      return clash("the output word '" + std::string(word) + "'", other->name());
    }
  }
  for (ContentKind content : format->contents()) {
    if (const FormatDescriptor* other = FindByContent(content)) {
      return clash("the content " + std::string(ContentName(content)), other->name());
    }
  }
  for (const SuffixRule& rule : format->suffixes()) {
    if (!Contains<ContentKind>(format->contents(), rule.content)) {
      return Status::InvalidArgument("format '" + std::string(format->name()) + "': its suffix " +
                                     std::string(rule.suffix) + " names a content it does not read");
    }
    if (const FormatDescriptor* other = FindBySuffix(std::string(rule.suffix))) {
      return clash("the suffix " + std::string(rule.suffix), other->name());
    }
  }
  suffixes_.insert(suffixes_.end(), format->suffixes().begin(), format->suffixes().end());
  for (const ContentSniffer* sniffer : format->sniffers()) {
    const auto after = std::upper_bound(sniffers_.begin(), sniffers_.end(), sniffer->priority(),
                                        [](int priority, const ContentSniffer* s) { return priority < s->priority(); });
    sniffers_.insert(after, sniffer);
  }
  formats_.push_back(std::move(format));
  return Status::OK();
}

std::vector<const FormatDescriptor*> FormatRegistry::formats() const {
  std::vector<const FormatDescriptor*> all;
  for (const auto& format : formats_) all.push_back(format.get());
  return all;
}

const FormatDescriptor* FormatRegistry::FindByName(std::string_view word) const {
  for (const auto& format : formats_) {
    if (format->name() == word || Contains<std::string_view>(format->aliases(), word)) return format.get();
  }
  return nullptr;
}

const FormatDescriptor* FormatRegistry::FindByContent(ContentKind content) const {
  for (const auto& format : formats_) {
    if (Contains<ContentKind>(format->contents(), content)) return format.get();
  }
  return nullptr;
}

const FormatDescriptor* FormatRegistry::FindBySuffix(std::string_view name) const {
  const ContentKind content = ContentFromSuffix(name, suffixes_);
  return content == ContentKind::kUnknown ? nullptr : FindByContent(content);
}

const FormatDescriptor* FormatRegistry::FindBySniffer(const ContentSniffer* sniffer) const {
  for (const auto& format : formats_) {
    const ContentSniffers sniffers = format->sniffers();
    if (std::find(sniffers.begin(), sniffers.end(), sniffer) != sniffers.end()) return format.get();
  }
  return nullptr;
}

const FormatDescriptor* FormatRegistry::FindOutput(std::string_view word) const {
  for (const auto& format : formats_) {
    if (Contains<std::string_view>(format->output_names(), word)) return format.get();
  }
  return nullptr;
}

std::vector<std::string_view> FormatRegistry::input_words() const {
  std::vector<std::string_view> words;
  for (const auto& format : formats_) {
    words.push_back(format->name());
    words.insert(words.end(), format->aliases().begin(), format->aliases().end());
  }
  return words;
}

std::vector<std::string_view> FormatRegistry::output_words() const {
  std::vector<std::string_view> words;
  for (const auto& format : formats_) words.insert(words.end(), format->output_names().begin(), format->output_names().end());
  return words;
}

Result<const FormatDescriptor*> FormatRegistry::ParseInputFormat(std::string_view word) const {
  if (word.empty() || word == "auto") return static_cast<const FormatDescriptor*>(nullptr);
  if (const FormatDescriptor* format = FindByName(word)) return format;
  return Status::InvalidArgument("unknown input format '" + std::string(word) + "' (" + Joined(input_words()) + ")");
}

Result<const FormatDescriptor*> FormatRegistry::ParseOutputFormat(std::string_view word) const {
  if (const FormatDescriptor* format = FindOutput(word)) return format;
  return Status::InvalidArgument("unknown output format '" + std::string(word) + "' (" + Joined(output_words()) + ")");
}

Result<DetectedFile> FormatRegistry::Detect(const std::string& path, const FormatDescriptor* forced,
                                            FileSystem& fs) const {
  DetectedFile detected;
  ASSIGN_OR_RETURN(detected.sniffed, SniffFile(path, sniff_rules(), fs));
  detected.rereadable = IsRegularFile(fs, path);
  const Sniffed& sniffed = detected.sniffed;
  if (forced != nullptr) {
    RETURN_NOT_OK(CheckReadableCodec(path, sniffed));
    detected.format = forced;
  } else {
    RETURN_NOT_OK(CheckReadableCodec(path, sniffed));
    detected.format = sniffed.claimed_by != nullptr ? FindBySniffer(sniffed.claimed_by) : FindByContent(sniffed.content);
    if (detected.format == nullptr) RETURN_NOT_OK(CheckReadable(path, sniffed));
    if (detected.format == nullptr) {
      return Status::NotFound("cannot tell the format of " + path +
                              ": its first bytes match no format recflow reads and its name has no known suffix; "
                              "pass --from");
    }
  }
  if (!detected.format->reads_compressed_files() && sniffed.codec != SniffedCodec::kNone) {
    return Status::DataError(std::string(CodecName(sniffed.codec)) + "-compressed " +
                             std::string(detected.format->name()) +
                             " input: recflow reads it uncompressed (the compression of its own blocks or buffers is "
                             "read); decompress it first")
        .WithFile(path);
  }
  return detected;
}

}  // namespace recflow::formats
