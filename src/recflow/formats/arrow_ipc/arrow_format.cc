// The "arrow" FormatDescriptor: files and streams opened by their sniffed framing; stream or file output by its word.
#include "recflow/formats/arrow_ipc/arrow_format.h"

#include "recflow/formats/arrow_ipc/arrow_output_format.h"
#include "recflow/formats/arrow_ipc/arrow_sniffer_internal.h"
#include "recflow/formats/arrow_ipc/arrow_source.h"
#include "recflow/formats/arrow_ipc/arrow_splitter_internal.h"

namespace recflow::arrow_ipc {

namespace {

using formats::FileToRead;
using formats::FormatReadOptions;

/// Arrow IPC reads take no format words: the schema, dictionaries and body codec are in the input.
using ArrowReadOptions = formats::TypedReadOptions<IpcReadOptions>;

class ArrowOpener final : public formats::FileOpener {
 public:
  explicit ArrowOpener(std::shared_ptr<const ArrowReadOptions> options) : options_(std::move(options)) {}

  Result<std::unique_ptr<Source>> Open(const FileToRead& file, const SchemaPtr& schema) override {
    return OpenArrowSource(file.path, file.detected.sniffed.content, options_->options());
  }

 private:
  std::shared_ptr<const ArrowReadOptions> options_;
};

class ArrowFormat final : public formats::FormatDescriptor {
 public:
  std::string_view name() const override { return "arrow"; }
  std::span<const std::string_view> aliases() const override { return kAliases; }
  std::span<const formats::ContentKind> contents() const override { return kContents; }
  formats::ContentSniffers sniffers() const override { return sniffers_; }
  std::span<const formats::SuffixRule> suffixes() const override { return kSuffixes; }
  bool carries_schema() const override { return true; }
  bool reads_compressed_files() const override { return false; }
  const formats::FormatSplitter* splitter() const override { return &splitter_; }

  Result<std::shared_ptr<const FormatReadOptions>> ParseReadOptions(
      const formats::ReadSettings& settings) const override {
    IpcReadOptions o = IpcReadOptions::Defaults();
    o.file_system = settings.file_system;
    RETURN_NOT_OK(o.Validate());
    auto file_system = o.file_system;
    return std::shared_ptr<const FormatReadOptions>(
        std::make_shared<ArrowReadOptions>(std::move(o), false, std::move(file_system)));
  }

  std::unique_ptr<formats::FileOpener> NewOpener(std::shared_ptr<const FormatReadOptions> options) const override {
    return std::make_unique<ArrowOpener>(std::static_pointer_cast<const ArrowReadOptions>(std::move(options)));
  }

  std::span<const std::string_view> output_names() const override { return kOutputNames; }
  bool compresses_bodies() const override { return true; }

  Result<formats::OutputMaker> MakeOutput(const formats::WriteSettings& settings) const override {
    if (settings.compression == "gzip" || settings.compression == "zlib") {
      return Status::InvalidArgument("Arrow files compress their bodies: compression none, lz4 or zstd, not " +
                                     settings.compression);
    }
    IpcWriteOptions options;
    ASSIGN_OR_RETURN(options.compression, ParseIpcCompression(settings.compression));
    options.level = settings.level < 0 ? 0 : settings.level;
    RETURN_NOT_OK(options.Validate());
    const bool file_format = settings.name == "feather";
    return formats::OutputMaker([options, file_format](SchemaPtr schema) {
      return MakeArrowOutputFormat(std::move(schema), file_format, options);
    });
  }

 private:
  ArrowSplitter splitter_;
  ArrowFileSniffer file_sniffer_;
  ArrowStreamSniffer stream_sniffer_;
  const formats::ContentSniffer* sniffers_[2] = {&file_sniffer_, &stream_sniffer_};
  static constexpr std::string_view kAliases[] = {"feather"};
  static constexpr formats::ContentKind kContents[] = {
      formats::ContentKind::kArrowFile, formats::ContentKind::kArrowStream, formats::ContentKind::kArrowLegacyStream};
  static constexpr formats::SuffixRule kSuffixes[] = {{".arrow", formats::ContentKind::kArrowFile},
                                                      {".feather", formats::ContentKind::kArrowFile},
                                                      {".ipc", formats::ContentKind::kArrowFile},
                                                      {".arrows", formats::ContentKind::kArrowStream}};
  static constexpr std::string_view kOutputNames[] = {"arrow", "feather"};
};

}  // namespace

Status RegisterArrowFormat(formats::FormatRegistry* registry) {
  return registry->Register(std::make_unique<ArrowFormat>());
}

}  // namespace recflow::arrow_ipc
