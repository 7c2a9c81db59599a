// The "jsonl" FormatDescriptor: the generic settings as jsonl::ReadOptions, files opened through their detected codec.
#include "recflow/formats/jsonl/jsonl_format.h"

#include "recflow/formats/jsonl/jsonl_output_format.h"
#include "recflow/formats/jsonl/jsonl_source.h"
#include "recflow/formats/jsonl/jsonl_sniffer_internal.h"
#include "recflow/formats/jsonl/jsonl_splitter_internal.h"
#include "recflow/formats/registry/detected_stream.h"
#include "recflow/formats/registry/inferred_settings.h"

namespace recflow::jsonl {

namespace {

using formats::FileToRead;
using formats::FormatReadOptions;

using JsonlReadOptions = formats::TypedReadOptions<ReadOptions>;

class JsonlOpener final : public formats::FileOpener {
 public:
  explicit JsonlOpener(std::shared_ptr<const JsonlReadOptions> options) : options_(std::move(options)) {}

  Result<std::unique_ptr<Source>> Open(const FileToRead& file, const SchemaPtr& schema) override {
    ReadOptions o = options_->options();
    if (schema != nullptr) o.schema = schema;
    ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, formats::OpenDetectedStream(*options_->file_system(), file));
    return OpenJsonlSource(std::move(in), o);
  }

 private:
  std::shared_ptr<const JsonlReadOptions> options_;
};

class JsonlFormat final : public formats::FormatDescriptor {
 public:
  std::string_view name() const override { return "jsonl"; }
  std::span<const std::string_view> aliases() const override { return kAliases; }
  std::span<const formats::ContentKind> contents() const override { return kContents; }
  formats::ContentSniffers sniffers() const override { return sniffers_; }
  std::span<const formats::SuffixRule> suffixes() const override { return kSuffixes; }

  Result<std::shared_ptr<const FormatReadOptions>> ParseReadOptions(
      const formats::ReadSettings& settings) const override {
    ReadOptions o = ReadOptions::Defaults();
    formats::ApplyInferredSettings(settings, &o);
    RETURN_NOT_OK(o.Validate());
    return std::shared_ptr<const FormatReadOptions>(std::make_shared<JsonlReadOptions>(o, o.schema == nullptr, settings.file_system));
  }

  std::unique_ptr<formats::FileOpener> NewOpener(std::shared_ptr<const FormatReadOptions> options) const override {
    return std::make_unique<JsonlOpener>(std::static_pointer_cast<const JsonlReadOptions>(std::move(options)));
  }
  const formats::FormatSplitter* splitter() const override { return &splitter_; }

  std::span<const std::string_view> output_names() const override { return kOutputNames; }

  Result<formats::OutputMaker> MakeOutput(const formats::WriteSettings& settings) const override {
    return formats::OutputMaker([](SchemaPtr schema) { return MakeJsonlOutputFormat(std::move(schema)); });
  }

 private:
  JsonlSplitter splitter_;
  JsonlSniffer sniffer_;
  const formats::ContentSniffer* sniffers_[1] = {&sniffer_};
  static constexpr std::string_view kAliases[] = {"json"};
  static constexpr formats::ContentKind kContents[] = {formats::ContentKind::kJsonl};
  static constexpr formats::SuffixRule kSuffixes[] = {{".jsonl", formats::ContentKind::kJsonl},
                                                      {".ndjson", formats::ContentKind::kJsonl},
                                                      {".json", formats::ContentKind::kJsonl}};
  static constexpr std::string_view kOutputNames[] = {"jsonl"};
};

}  // namespace

Status RegisterJsonlFormat(formats::FormatRegistry* registry) {
  return registry->Register(std::make_unique<JsonlFormat>());
}

}  // namespace recflow::jsonl
