// FormatRegistry: the registered formats, looked up by the words that name them, by content and by suffix, and the
// detection of the format an input is read as.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"
#include "recflow/formats/registry/format_descriptor.h"

namespace recflow::formats {

/// The formats recflow reads and writes. Formats register themselves (each format folder exports
/// a Register...Format function that the registry's owner calls, see BuiltinFormats()); lookups
/// are read-only and thread-safe once registration is done.
class FormatRegistry {
 public:
  /// Adds `format`. AlreadyExists when one of its words, output words, contents or suffixes is
  /// taken; InvalidArgument for a suffix of a content it does not read.
  Status Register(std::unique_ptr<const FormatDescriptor> format);

  /// Every registered format, in registration order.
  std::vector<const FormatDescriptor*> formats() const;
  /// The format whose name or alias is `word`; nullptr when none.
  const FormatDescriptor* FindByName(std::string_view word) const;
  /// The format that reads `content`; nullptr for unknown, foreign and unclaimed contents.
  const FormatDescriptor* FindByContent(ContentKind content) const;
  /// The format a file name's suffix implies (a registered format's suffixes()), nullptr when none.
  const FormatDescriptor* FindBySuffix(std::string_view name) const;
  /// The format whose sniffers() hold `sniffer`; nullptr when none.
  const FormatDescriptor* FindBySniffer(const ContentSniffer* sniffer) const;
  /// Every registered format's content checks, sorted by priority (registration order among
  /// equals), and suffixes: what Detect sniffs with.
  SniffRules sniff_rules() const { return {sniffers_, suffixes_}; }
  /// The format whose output_names() hold `word`; nullptr when none.
  const FormatDescriptor* FindOutput(std::string_view word) const;
  /// Every input word (names, then aliases, format by format), for help and checks.
  std::vector<std::string_view> input_words() const;
  /// Every output word, format by format.
  std::vector<std::string_view> output_words() const;

  /// An input word (--from, a read step's `format:`): the format it names, nullptr for "auto"
  /// or "" (each file's content, then its suffix); InvalidArgument listing the words otherwise.
  Result<const FormatDescriptor*> ParseInputFormat(std::string_view word) const;
  /// An output word (--to, a write step's `format:`); InvalidArgument listing the words otherwise.
  Result<const FormatDescriptor*> ParseOutputFormat(std::string_view word) const;

  /// Sniffs `path` on `fs` with sniff_rules() (SniffFile: standard input "-" and pipes are peeked,
  /// then still read from their first byte) and decides its format: `forced` unless it is null
  /// (--from), else the format whose check claimed the content (FindBySniffer), else the one that
  /// reads the content (FindByContent; an empty input with no telling suffix is read by the format
  /// claiming ContentKind::kEmpty). A codec or a format recflow does not read is a
  /// DataError naming the file and what was found (a forced format skips the content check), as
  /// is gzip/zlib around a format that refuses compressed files; bytes that say nothing, with no
  /// telling suffix, are NotFound ("pass --from").
  Result<DetectedFile> Detect(const std::string& path, const FormatDescriptor* forced,
                              FileSystem& fs = *LocalFileSystem::Instance()) const;

 private:
  std::vector<std::unique_ptr<const FormatDescriptor>> formats_;
  std::vector<const ContentSniffer*> sniffers_;
  std::vector<SuffixRule> suffixes_;
};

}  // namespace recflow::formats
