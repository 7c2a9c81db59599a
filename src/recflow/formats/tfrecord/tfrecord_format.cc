// The "tfrecord" FormatDescriptor: reader and record-type words, files sampled together for inference, Example output.
#include "recflow/formats/tfrecord/tfrecord_format.h"

#include "recflow/core/compression.h"
#include "recflow/formats/example/feature_columns.h"
#include "recflow/formats/schema_json.h"
#include "recflow/formats/tfrecord/sampled_schema.h"
#include "recflow/formats/tfrecord/tfrecord_output_format.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"
#include "recflow/formats/tfrecord/tfrecord_sniffer_internal.h"
#include "recflow/formats/tfrecord/tfrecord_splitter_internal.h"

namespace recflow::tfrecord {

namespace {

using formats::FileToRead;
using formats::FormatReadOptions;

using TfrecordReadOptions = formats::TypedReadOptions<SourceOptions>;

class TfrecordOpener final : public formats::FileOpener {
 public:
  explicit TfrecordOpener(std::shared_ptr<const TfrecordReadOptions> options) : options_(std::move(options)) {}

  Result<SchemaPtr> SampleSchema(std::span<const FileToRead> files, const std::string& name) override {
    // Features differ from file to file (a feature only some partitions have): sample them all
    // first, then read them from their start.
    for (const FileToRead& file : files) {
      if (file.detected.rereadable) continue;
      return Status::InvalidArgument(
          (file.path == "-" ? std::string("standard input") : file.path) +
          " is not a regular file: TFRecord inputs read together infer their schema from a sample of each "
          "before reading them, and a pipe can be read only once; give --schema, or read it on its own");
    }
    const SourceOptions& o = options_->options();
    auto open = [&](size_t k) { return RecordReader::Open(files[k].path, WithDetectedCodec(o.reader, files[k].detected)); };
    ASSIGN_OR_RETURN(SampledSchema sampled,
                     InferSampledSchema(files.size(), open, o.record_type, o.inference_records, o.skip_bad_records));
    return ApplySchemaHints(sampled.schema, o.type_hints, name);
  }

  Result<std::unique_ptr<Source>> Open(const FileToRead& file, const SchemaPtr& schema) override {
    SourceOptions o = options_->options();
    o.reader = WithDetectedCodec(o.reader, file.detected);
    if (schema != nullptr) o.schema = schema;
    return OpenTfrecordSource(file.path, o);
  }

 private:
  std::shared_ptr<const TfrecordReadOptions> options_;
};

class TfrecordFormat final : public formats::FormatDescriptor {
 public:
  std::string_view name() const override { return "tfrecord"; }
  std::span<const formats::ContentKind> contents() const override { return kContents; }
  formats::ContentSniffers sniffers() const override { return sniffers_; }
  std::span<const formats::SuffixRule> suffixes() const override { return kSuffixes; }

  Result<std::shared_ptr<const FormatReadOptions>> ParseReadOptions(
      const formats::ReadSettings& settings) const override {
    SourceOptions o = SourceOptions::Defaults();
    ASSIGN_OR_RETURN(const std::string record_type, settings.args.String("record_type", "example"));
    ASSIGN_OR_RETURN(o.record_type, example::ParseRecordType(record_type));
    ASSIGN_OR_RETURN(o.reader, ReaderOptionsFromArgs(settings.args));
    o.reader.file_system = settings.file_system;
    o.inference_records = settings.infer_rows;
    o.schema = settings.schema;
    o.type_hints = settings.type_hints;
    o.skip_bad_records = settings.skip_bad;
    RETURN_NOT_OK(o.Validate());
    return std::shared_ptr<const FormatReadOptions>(std::make_shared<TfrecordReadOptions>(o, o.schema == nullptr, settings.file_system));
  }

  std::unique_ptr<formats::FileOpener> NewOpener(std::shared_ptr<const FormatReadOptions> options) const override {
    return std::make_unique<TfrecordOpener>(std::static_pointer_cast<const TfrecordReadOptions>(std::move(options)));
  }
  const formats::FormatSplitter* splitter() const override { return &splitter_; }
  Compression ReadCodec(const FormatReadOptions& options, const formats::DetectedFile& file) const override {
    return WithDetectedCodec(static_cast<const TfrecordReadOptions&>(options).options().reader, file).compression;
  }

  std::span<const std::string_view> output_names() const override { return kOutputNames; }
  std::span<const formats::OwnWriteKey> own_write_keys() const override { return kOwnWriteKeys; }

  Result<formats::OutputMaker> MakeOutput(const formats::WriteSettings& settings) const override {
    ASSIGN_OR_RETURN(const std::string record_type, settings.args.String("record_type", "example"));
    ASSIGN_OR_RETURN(const example::RecordType type, example::ParseRecordType(record_type));
    example::FeatureOptions features = example::FeatureOptions::Defaults();
    ASSIGN_OR_RETURN(const std::string decimals, settings.args.String("decimals", "string"));
    ASSIGN_OR_RETURN(features.decimals, example::ParseDecimalFeatures(decimals));
    return formats::OutputMaker([type, features](SchemaPtr schema) {
      return MakeTfrecordOutputFormat(std::move(schema), type, features);
    });
  }

 private:
  TfrecordSplitter splitter_;
  TfrecordSniffer sniffer_;
  const formats::ContentSniffer* sniffers_[1] = {&sniffer_};
  static constexpr formats::ContentKind kContents[] = {formats::ContentKind::kTfrecord, formats::ContentKind::kEmpty};
  static constexpr formats::SuffixRule kSuffixes[] = {{".tfrecord", formats::ContentKind::kTfrecord},
                                                      {".tfrecords", formats::ContentKind::kTfrecord},
                                                      {".tfr", formats::ContentKind::kTfrecord}};
  static constexpr std::string_view kOutputNames[] = {"tfrecord"};
  static constexpr formats::OwnWriteKey kOwnWriteKeys[] = {{"decimals", "string"}};
};

}  // namespace

Result<ReaderOptions> ReaderOptionsFromArgs(const formats::FormatArgs& args) {
  ReaderOptions options = ReaderOptions::Defaults();
  ASSIGN_OR_RETURN(const std::string compression, args.String("compression", "auto"));
  if (compression != "auto") {
    options.compression_auto = false;
    ASSIGN_OR_RETURN(options.compression, ParseCompression(compression));
  }
  ASSIGN_OR_RETURN(options.verify_crc, args.Bool("verify_crc", options.verify_crc));
  ASSIGN_OR_RETURN(options.skip_corrupt, args.Bool("skip_corrupt", options.skip_corrupt));
  ASSIGN_OR_RETURN(options.max_record_bytes, args.Int("max_record_bytes", options.max_record_bytes));
  RETURN_NOT_OK(options.Validate());
  return options;
}

ReaderOptions WithDetectedCodec(ReaderOptions options, const formats::DetectedFile& file) {
  if (!options.compression_auto) return options;
  options.compression_auto = false;
  options.compression = formats::ReadableCompression(file.sniffed.codec).value_or(Compression::kNone);
  return options;
}

Status RegisterTfrecordFormat(formats::FormatRegistry* registry) {
  return registry->Register(std::make_unique<TfrecordFormat>());
}

}  // namespace recflow::tfrecord
