// JsonlSource: JsonlReader's sample, then units of copied lines, each decoded on its own thread.
#include "recflow/formats/jsonl/jsonl_source.h"

#include <utility>
#include <vector>

#include "recflow/formats/jsonl/jsonl_reader.h"
#include "recflow/formats/jsonl/line_source_internal.h"
#include "recflow/formats/jsonl/record_converter_internal.h"
#include "recflow/formats/jsonl/record_parser_internal.h"

namespace recflow::jsonl {

namespace {

// Lines copied back to back (each followed by LF), then simdjson's padding.
class JsonlUnit final : public SourceUnit {
 public:
  // Where one line sits in text_.
  struct Span {
    size_t begin;
    size_t size;
    int64_t offset;
    int64_t number;
  };

  JsonlUnit(std::shared_ptr<const ReadOptions> options, SchemaPtr schema, std::shared_ptr<const std::string> name)
      : options_(std::move(options)), schema_(std::move(schema)), name_(std::move(name)) {}

  void Add(const Line& line) {
    lines_.push_back({text_.size(), line.text.size(), line.offset, line.number});
    text_.append(line.text).push_back('\n');
  }
  size_t size() const { return text_.size(); }
  void Seal() { text_.append(static_cast<size_t>(kLinePadding), ' '); }

  Result<DecodedUnit> Decode() override {
    RecordParser parser(options_->max_depth);
    ASSIGN_OR_RETURN(auto converter, RecordConverter::Make(schema_));
    DecodedUnit out;
    for (const Span& s : lines_) {
      const Line line{std::string_view(text_).substr(s.begin, s.size), s.offset, s.number};
      Status st = ConvertLine(&parser, converter.get(), line, *name_, out.input_records++);
      if (st.ok()) continue;
      if (options_->bad_rows == formats::BadRowsMode::kFail || st.code() != StatusCode::kDataError) return st;
      out.skipped.push_back({std::string(line.text), std::move(st)});
    }
    ASSIGN_OR_RETURN(out.batch, converter->Finish());
    return out;
  }

  int64_t input_bytes() const override { return static_cast<int64_t>(text_.size()); }

 private:
  std::shared_ptr<const ReadOptions> options_;
  SchemaPtr schema_;
  std::shared_ptr<const std::string> name_;  // shared: a unit may outlive its source
  std::string text_;
  std::vector<Span> lines_;
};

}  // namespace

// The source: a JsonlReader past its sample, handing out its lines in units.
class JsonlSource final : public Source {
 public:
  JsonlSource(std::unique_ptr<JsonlReader> reader, std::shared_ptr<const ReadOptions> options)
      : reader_(std::move(reader)),
        options_(std::move(options)),
        name_(std::make_shared<const std::string>(reader_->name_)) {}

  const SchemaPtr& schema() const override { return reader_->schema(); }
  const std::string& name() const override { return *name_; }

  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (!error_.ok()) return error_;
    auto unit = std::make_unique<JsonlUnit>(options_, schema(), name_);
    while (static_cast<int64_t>(unit->size()) < options_->block_size) {
      auto line = reader_->NextLine();
      if (!line.ok()) {
        error_ = line.status();
        return error_;
      }
      if (!line->has_value()) break;
      unit->Add(**line);
    }
    if (unit->size() == 0) return std::unique_ptr<SourceUnit>();
    unit->Seal();
    return std::unique_ptr<SourceUnit>(std::move(unit));
  }

 private:
  std::unique_ptr<JsonlReader> reader_;
  std::shared_ptr<const ReadOptions> options_;
  std::shared_ptr<const std::string> name_;
  Status error_;
};

Result<std::unique_ptr<Source>> OpenJsonlSource(std::unique_ptr<InputStream> in, const ReadOptions& options) {
  auto shared = std::make_shared<ReadOptions>(options);
  shared->on_bad_row = nullptr;
  ASSIGN_OR_RETURN(auto reader, JsonlReader::FromStream(std::move(in), *shared));
  return std::unique_ptr<Source>(std::make_unique<JsonlSource>(std::move(reader), std::move(shared)));
}

}  // namespace recflow::jsonl
