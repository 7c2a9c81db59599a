// CsvReader: header, inference sample, and the block → rows → batch loop with bad-row policy.
#include "recflow/formats/csv/csv_reader.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "recflow/formats/csv/block_parser.h"
#include "recflow/formats/csv/block_source_internal.h"
#include "recflow/formats/csv/inference.h"
#include "recflow/formats/csv/row_converter_internal.h"
#include "recflow/formats/schema_json.h"

namespace recflow::csv {

namespace {

std::string DefaultColumnName(size_t i) { return "_c" + std::to_string(i); }

}  // namespace

Result<std::unique_ptr<CsvReader>> CsvReader::FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                         const ReadOptions& options) {
  return FromStream(std::make_unique<BufferInputStream>(std::move(data), std::move(name)), options);
}

Result<std::unique_ptr<CsvReader>> CsvReader::FromStream(std::unique_ptr<InputStream> in,
                                                         const ReadOptions& options) {
  RETURN_NOT_OK(options.Validate());
  auto reader = std::make_unique<CsvReader>(std::move(in), options);
  RETURN_NOT_OK(reader->Init());
  return reader;
}

CsvReader::CsvReader(std::unique_ptr<InputStream> in, const ReadOptions& options)
    : options_(options), name_(in->name()) {
  source_ = std::make_unique<BlockSource>(std::move(in), options_.dialect, options_.block_size,
                                          options_.max_row_bytes);
}

CsvReader::~CsvReader() = default;

Result<bool> CsvReader::LoadBlock() {
  ASSIGN_OR_RETURN(auto block, source_->Next());
  if (!block.has_value()) return false;
  pending_.push_back({std::move(recycled_), 0});
  recycled_ = ParsedBlock();
  ParseBlock(std::move(block->data), block->offset, block->first_line, options_.dialect, &pending_.back().block);
  return true;
}

Status CsvReader::ReadHeader() {
  while (pending_.empty() || pending_.back().block.rows.empty()) {
    ASSIGN_OR_RETURN(const bool loaded, LoadBlock());
    if (!loaded) return Status::OK();  // no rows at all: no columns
  }
  Pending& first = pending_.back();
  const RowRef& row = first.block.rows[0];
  if (row.fault != RowFault::kNone) {
    return Status::DataError("line " + std::to_string(row.line) + ": malformed header row")
        .WithFile(name_)
        .WithOffset(first.block.offset + row.fault_offset);
  }
  std::string scratch;
  for (int64_t i = 0; i < row.num_fields; ++i) {
    const FieldRef& f = first.block.fields[static_cast<size_t>(row.first_field + i)];
    std::string name(first.block.Value(f, options_.dialect.quote, &scratch));
    header_names_.push_back(name.empty() ? DefaultColumnName(static_cast<size_t>(i)) : std::move(name));
  }
  first.next_row = 1;
  return Status::OK();
}

Status CsvReader::CheckExpectedHeader() const {
  const std::vector<std::string>& expected = options_.expected_header;
  // An empty file has no header to compare (and no rows to misread).
  if (expected.empty() || header_names_.empty() || header_names_ == expected) return Status::OK();
  std::string why;
  for (size_t c = 0; c < std::max(expected.size(), header_names_.size()); ++c) {
    const bool has = c < header_names_.size();
    const bool wants = c < expected.size();
    if (has && wants && header_names_[c] == expected[c]) continue;
    why = "column " + std::to_string(c + 1) + " is " + (has ? "'" + header_names_[c] + "'" : "missing") +
          ", expected " + (wants ? "'" + expected[c] + "'" : "no column");
    break;
  }
  return Status::DataError("line 1: header differs from the first input's (" + why + ")").WithFile(name_).WithOffset(0);
}

Status CsvReader::InferSchema() {
  const std::vector<std::string>& names = header_names_;
  const bool have_names = options_.header;
  std::vector<ColumnInference> columns(names.size());
  bool know_width = have_names;
  int64_t seen = 0;
  std::string scratch;
  bool whole_input = false;  // the sample reached the end of the input
  for (size_t bi = 0; seen < options_.inference_rows; ++bi) {
    if (bi == pending_.size()) {
      ASSIGN_OR_RETURN(const bool loaded, LoadBlock());
      whole_input = !loaded;
      if (!loaded) break;
    }
    const Pending& p = pending_[bi];
    for (size_t r = p.next_row; r < p.block.rows.size() && seen < options_.inference_rows; ++r, ++seen) {
      const RowRef& row = p.block.rows[r];
      if (!know_width) {
        know_width = true;
        columns.resize(static_cast<size_t>(row.num_fields));
      }
      if (row.fault != RowFault::kNone || row.num_fields != static_cast<int64_t>(columns.size())) continue;
      for (size_t c = 0; c < columns.size(); ++c) {
        const FieldRef& f = p.block.fields[static_cast<size_t>(row.first_field) + c];
        const std::string_view value = p.block.Value(f, options_.dialect.quote, &scratch);
        if (!f.quoted() && options_.IsNullText(value)) {
          columns[c].ObserveNull();
        } else {
          columns[c].Observe(value);
        }
      }
    }
  }
  std::vector<FieldPtr> fields;
  for (size_t c = 0; c < columns.size(); ++c) {
    // Past the sample a null may come in any column: only a sample of the whole input decides.
    fields.push_back(columns[c].MakeField(have_names ? names[c] : DefaultColumnName(c),
                                          options_.infer_nullability && whole_input));
  }
  ASSIGN_OR_RETURN(schema_, ApplySchemaHints(Schema::Make(std::move(fields)), options_.type_hints, name_));
  return Status::OK();
}

Status CsvReader::Init() {
  if (options_.header) {
    RETURN_NOT_OK(ReadHeader());
    RETURN_NOT_OK(CheckExpectedHeader());
  }
  if (options_.schema != nullptr) {
    schema_ = options_.schema;
    return Status::OK();
  }
  return InferSchema();
}

Status CsvReader::FillBatch() {
  while (converter_->num_rows() < options_.batch_rows) {
    if (pending_.empty()) {
      ASSIGN_OR_RETURN(const bool loaded, LoadBlock());
      if (!loaded) return Status::OK();
    }
    Pending& p = pending_.front();
    while (p.next_row < p.block.rows.size() && converter_->num_rows() < options_.batch_rows) {
      const RowRef& row = p.block.rows[p.next_row++];
      Status st = converter_->Append(p.block, row, next_record_++);
      if (st.ok()) continue;
      if (options_.bad_rows == formats::BadRowsMode::kFail || st.code() != StatusCode::kDataError) return st;
      ++bad_rows_;
      if (options_.on_bad_row) options_.on_bad_row(formats::BadRow{p.block.RowText(row), row.line, std::move(st)});
    }
    if (p.next_row == p.block.rows.size()) {
      recycled_ = std::move(p.block);
      recycled_.data.reset();
      pending_.pop_front();
    }
  }
  return Status::OK();
}

Result<std::shared_ptr<RecordBatch>> CsvReader::Next() {
  if (!error_.ok()) return error_;
  if (done_) return std::shared_ptr<RecordBatch>();
  if (converter_ == nullptr) {
    auto converter = RowConverter::Make(schema_, options_, name_);
    if (!converter.ok()) {
      error_ = converter.status();
      return error_;
    }
    converter_ = std::move(converter).ValueUnsafe();
  }
  Status st = FillBatch();
  if (!st.ok()) {
    error_ = st;
    return st;
  }
  if (converter_->num_rows() == 0) {
    done_ = true;
    return std::shared_ptr<RecordBatch>();
  }
  return converter_->Finish();
}

}  // namespace recflow::csv
