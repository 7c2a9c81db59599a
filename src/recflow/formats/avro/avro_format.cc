// The "avro" FormatDescriptor: the bad-block policy from the generic settings, each file opened with its own schema.
#include "recflow/formats/avro/avro_format.h"

#include "recflow/formats/avro/avro_source.h"
#include "recflow/formats/avro/avro_sniffer_internal.h"
#include "recflow/formats/avro/avro_splitter_internal.h"

namespace recflow::avro {

namespace {

using formats::FileToRead;
using formats::FormatReadOptions;

using AvroReadOptions = formats::TypedReadOptions<ReadOptions>;

class AvroOpener final : public formats::FileOpener {
 public:
  explicit AvroOpener(std::shared_ptr<const AvroReadOptions> options) : options_(std::move(options)) {}

  Result<std::unique_ptr<Source>> Open(const FileToRead& file, const SchemaPtr& schema) override {
    return OpenAvroSource(file.path, options_->options());
  }

 private:
  std::shared_ptr<const AvroReadOptions> options_;
};

class AvroFormat final : public formats::FormatDescriptor {
 public:
  std::string_view name() const override { return "avro"; }
  std::span<const formats::ContentKind> contents() const override { return kContents; }
  formats::ContentSniffers sniffers() const override { return sniffers_; }
  std::span<const formats::SuffixRule> suffixes() const override { return kSuffixes; }
  bool carries_schema() const override { return true; }
  bool reads_compressed_files() const override { return false; }

  Result<std::shared_ptr<const FormatReadOptions>> ParseReadOptions(
      const formats::ReadSettings& settings) const override {
    // The schema is in the file; a schema file does not apply.
    ReadOptions o = ReadOptions::Defaults();
    o.bad_blocks = settings.skip_bad ? BadBlocksMode::kSkip : BadBlocksMode::kFail;
    o.file_system = settings.file_system;
    RETURN_NOT_OK(o.Validate());
    return std::shared_ptr<const FormatReadOptions>(std::make_shared<AvroReadOptions>(o, false, settings.file_system));
  }

  std::unique_ptr<formats::FileOpener> NewOpener(std::shared_ptr<const FormatReadOptions> options) const override {
    return std::make_unique<AvroOpener>(std::static_pointer_cast<const AvroReadOptions>(std::move(options)));
  }
  const formats::FormatSplitter* splitter() const override { return &splitter_; }

 private:
  AvroSplitter splitter_;
  AvroSniffer sniffer_;
  const formats::ContentSniffer* sniffers_[1] = {&sniffer_};
  static constexpr formats::ContentKind kContents[] = {formats::ContentKind::kAvro};
  static constexpr formats::SuffixRule kSuffixes[] = {{".avro", formats::ContentKind::kAvro}};
};

}  // namespace

Status RegisterAvroFormat(formats::FormatRegistry* registry) { return registry->Register(std::make_unique<AvroFormat>()); }

}  // namespace recflow::avro
