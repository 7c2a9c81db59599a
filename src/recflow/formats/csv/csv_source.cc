// CsvSource: CsvReader's prologue (header, sample), then one unit per block, decoded in parallel.
#include "recflow/formats/csv/csv_source.h"

#include <utility>

#include "recflow/formats/csv/block_source_internal.h"
#include "recflow/formats/csv/csv_reader.h"
#include "recflow/formats/csv/row_converter_internal.h"

namespace recflow::csv {

namespace {

// A block (already parsed when it came from the inference sample) and the rows it starts at.
class CsvUnit final : public SourceUnit {
 public:
  CsvUnit(std::shared_ptr<const ReadOptions> options, SchemaPtr schema, std::shared_ptr<const std::string> name,
          ParsedBlock parsed, size_t first_row, std::optional<Block> raw)
      : options_(std::move(options)),
        schema_(std::move(schema)),
        name_(std::move(name)),
        parsed_(std::move(parsed)),
        first_row_(first_row),
        raw_(std::move(raw)) {
    bytes_ = raw_ ? raw_->data->size() : (parsed_.data ? parsed_.data->size() : 0);
  }

  Result<DecodedUnit> Decode() override {
    if (raw_) {
      ParseBlock(std::move(raw_->data), raw_->offset, raw_->first_line, options_->dialect, &parsed_);
      raw_.reset();
    }
    ASSIGN_OR_RETURN(auto converter, RowConverter::Make(schema_, *options_, *name_));
    DecodedUnit out;
    for (size_t r = first_row_; r < parsed_.rows.size(); ++r) {
      const RowRef& row = parsed_.rows[r];
      const int64_t record = out.input_records++;
      Status st = converter->Append(parsed_, row, record);
      if (st.ok()) continue;
      if (options_->bad_rows == formats::BadRowsMode::kFail || st.code() != StatusCode::kDataError) return st;
      out.skipped.push_back({std::string(parsed_.RowText(row)), std::move(st)});
    }
    ASSIGN_OR_RETURN(out.batch, converter->Finish());
    return out;
  }

  int64_t input_bytes() const override { return bytes_; }

 private:
  std::shared_ptr<const ReadOptions> options_;
  SchemaPtr schema_;
  std::shared_ptr<const std::string> name_;  // shared: a unit may outlive its source
  ParsedBlock parsed_;
  size_t first_row_;
  std::optional<Block> raw_;
  int64_t bytes_ = 0;
};

}  // namespace

// The source: a CsvReader that has read the header and the sample, handing out its blocks.
class CsvSource final : public Source {
 public:
  CsvSource(std::unique_ptr<CsvReader> reader, std::shared_ptr<const ReadOptions> options)
      : reader_(std::move(reader)),
        options_(std::move(options)),
        name_(std::make_shared<const std::string>(reader_->name_)) {}

  const SchemaPtr& schema() const override { return reader_->schema(); }
  const std::string& name() const override { return *name_; }

  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (!error_.ok()) return error_;
    auto& pending = reader_->pending_;
    if (!pending.empty()) {
      CsvReader::Pending p = std::move(pending.front());
      pending.pop_front();
      return std::unique_ptr<SourceUnit>(std::make_unique<CsvUnit>(options_, schema(), name_,
                                                                   std::move(p.block), p.next_row, std::nullopt));
    }
    auto block = reader_->source_->Next();
    if (!block.ok()) {
      error_ = block.status();
      return error_;
    }
    if (!block->has_value()) return std::unique_ptr<SourceUnit>();
    return std::unique_ptr<SourceUnit>(
        std::make_unique<CsvUnit>(options_, schema(), name_, ParsedBlock(), 0, std::move(*block)));
  }

 private:
  std::unique_ptr<CsvReader> reader_;
  std::shared_ptr<const ReadOptions> options_;
  std::shared_ptr<const std::string> name_;
  Status error_;
};

Result<std::unique_ptr<Source>> OpenCsvSource(std::unique_ptr<InputStream> in, const ReadOptions& options,
                                              std::vector<std::string>* header_names) {
  auto shared = std::make_shared<ReadOptions>(options);
  shared->on_bad_row = nullptr;
  ASSIGN_OR_RETURN(auto reader, CsvReader::FromStream(std::move(in), *shared));
  if (header_names != nullptr) *header_names = reader->header_names();
  return std::unique_ptr<Source>(std::make_unique<CsvSource>(std::move(reader), std::move(shared)));
}

}  // namespace recflow::csv
