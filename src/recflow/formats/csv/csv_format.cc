// The "csv" FormatDescriptor: dialect words parsed into csv::ReadOptions, later files checked against the first header.
#include "recflow/formats/csv/csv_format.h"

#include "recflow/formats/csv/csv_output_format.h"
#include "recflow/formats/csv/csv_source.h"
#include "recflow/formats/csv/csv_sniffer_internal.h"
#include "recflow/formats/csv/csv_splitter_internal.h"
#include "recflow/formats/registry/detected_stream.h"
#include "recflow/formats/registry/inferred_settings.h"

namespace recflow::csv {

namespace {

using formats::FileToRead;
using formats::FormatReadOptions;

using CsvReadOptions = formats::TypedReadOptions<ReadOptions>;

class CsvOpener final : public formats::FileOpener {
 public:
  explicit CsvOpener(std::shared_ptr<const CsvReadOptions> options) : options_(std::move(options)) {}

  Result<std::unique_ptr<Source>> Open(const FileToRead& file, const SchemaPtr& schema) override {
    ReadOptions o = options_->options();
    if (schema != nullptr) o.schema = schema;
    // Later files must name their columns as the first CSV file did.
    o.expected_header = header_;
    ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, formats::OpenDetectedStream(*options_->file_system(), file));
    return OpenCsvSource(std::move(in), o, header_.empty() ? &header_ : nullptr);
  }

 private:
  std::shared_ptr<const CsvReadOptions> options_;
  std::vector<std::string> header_;  // the first file's header row
};

class CsvFormat final : public formats::FormatDescriptor {
 public:
  std::string_view name() const override { return "csv"; }
  std::span<const formats::ContentKind> contents() const override { return kContents; }
  formats::ContentSniffers sniffers() const override { return sniffers_; }
  std::span<const formats::SuffixRule> suffixes() const override { return kSuffixes; }

  Result<std::shared_ptr<const FormatReadOptions>> ParseReadOptions(
      const formats::ReadSettings& settings) const override {
    const formats::FormatArgs& args = settings.args;
    ReadOptions o = ReadOptions::Defaults();
    ASSIGN_OR_RETURN(const std::string delimiter, args.String("delimiter", ","));
    ASSIGN_OR_RETURN(o.dialect.delimiter, DialectChar("the delimiter", delimiter));
    ASSIGN_OR_RETURN(const std::string quote, args.String("quote", "\""));
    ASSIGN_OR_RETURN(o.dialect.quote, DialectChar("the quote", quote));
    ASSIGN_OR_RETURN(const std::string comment, args.String("comment", ""));
    if (!comment.empty()) {
      ASSIGN_OR_RETURN(o.dialect.comment, DialectChar("the comment character", comment));
    }
    ASSIGN_OR_RETURN(o.header, args.Bool("header", true));
    const std::vector<std::string> nulls = args.List("null_values");
    o.null_values.insert(o.null_values.end(), nulls.begin(), nulls.end());
    formats::ApplyInferredSettings(settings, &o);
    RETURN_NOT_OK(o.Validate());
    return std::shared_ptr<const FormatReadOptions>(std::make_shared<CsvReadOptions>(o, o.schema == nullptr, settings.file_system));
  }

  std::unique_ptr<formats::FileOpener> NewOpener(std::shared_ptr<const FormatReadOptions> options) const override {
    return std::make_unique<CsvOpener>(std::static_pointer_cast<const CsvReadOptions>(std::move(options)));
  }
  const formats::FormatSplitter* splitter() const override { return &splitter_; }

  std::span<const std::string_view> output_names() const override { return kOutputNames; }

  Result<formats::OutputMaker> MakeOutput(const formats::WriteSettings& settings) const override {
    WriteOptions options = WriteOptions::Defaults();
    ASSIGN_OR_RETURN(const std::string delimiter, settings.args.String("delimiter", ","));
    ASSIGN_OR_RETURN(options.delimiter, DialectChar("the delimiter", delimiter));
    return formats::OutputMaker([options](SchemaPtr schema) { return MakeCsvOutputFormat(std::move(schema), options); });
  }

 private:
  CsvSplitter splitter_;
  CsvSniffer sniffer_;
  const formats::ContentSniffer* sniffers_[1] = {&sniffer_};
  static constexpr formats::ContentKind kContents[] = {formats::ContentKind::kCsv};
  static constexpr formats::SuffixRule kSuffixes[] = {{".csv", formats::ContentKind::kCsv},
                                                      {".tsv", formats::ContentKind::kCsv}};
  static constexpr std::string_view kOutputNames[] = {"csv"};
};

}  // namespace

Result<char> DialectChar(const std::string& what, const std::string& value) {
  if (value == "\\t" || value == "tab") return '\t';
  if (value.size() != 1) return Status::InvalidArgument(what + " must be a single character, got '" + value + "'");
  return value[0];
}

Status RegisterCsvFormat(formats::FormatRegistry* registry) { return registry->Register(std::make_unique<CsvFormat>()); }

}  // namespace recflow::csv
