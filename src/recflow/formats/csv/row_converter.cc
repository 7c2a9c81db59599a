// RowConverter: field-count and fault checks, null rules, stage-then-commit appends.
#include "recflow/formats/csv/row_converter_internal.h"

#include <utility>

namespace recflow::csv {
namespace {

// At most 40 bytes of a value, for error messages.
std::string Excerpt(std::string_view value) {
  constexpr size_t kMax = 40;
  if (value.size() <= kMax) return std::string(value);
  return std::string(value.substr(0, kMax)) + "...";
}

const char* FaultMessage(RowFault fault) {
  switch (fault) {
    case RowFault::kUnterminatedQuote:
      return "quoted field not closed before the end of the input";
    case RowFault::kTextAfterQuote:
      return "text after a closing quote (quote the whole field and double the quotes inside it)";
    case RowFault::kNone:
      break;
  }
  return "no fault";
}

}  // namespace

Result<std::unique_ptr<RowConverter>> RowConverter::Make(SchemaPtr schema, const ReadOptions& options,
                                                         std::string file) {
  std::vector<std::unique_ptr<ColumnDecoder>> decoders;
  for (const auto& field : schema->fields()) {
    ASSIGN_OR_RETURN(auto decoder, ColumnDecoder::Make(*field));
    decoders.push_back(std::move(decoder));
  }
  return std::make_unique<RowConverter>(std::move(schema), options, std::move(file), std::move(decoders));
}

RowConverter::RowConverter(SchemaPtr schema, const ReadOptions& options, std::string file,
                           std::vector<std::unique_ptr<ColumnDecoder>> decoders)
    : schema_(std::move(schema)),
      options_(options),
      file_(std::move(file)),
      decoders_(std::move(decoders)),
      scratch_(decoders_.size()) {}

Status RowConverter::RowError(const ParsedBlock& block, const RowRef& row, int64_t record, int64_t block_offset,
                              const std::string& message) const {
  return Status::DataError("line " + std::to_string(row.line) + ": " + message)
      .WithFile(file_)
      .WithOffset(block.offset + block_offset)
      .WithRecord(record);
}

Status RowConverter::Append(const ParsedBlock& block, const RowRef& row, int64_t record) {
  if (row.fault != RowFault::kNone) return RowError(block, row, record, row.fault_offset, FaultMessage(row.fault));
  const int64_t num_columns = static_cast<int64_t>(decoders_.size());
  if (row.num_fields != num_columns) {
    return RowError(block, row, record, row.begin,
                    "expected " + std::to_string(num_columns) + " fields, found " + std::to_string(row.num_fields));
  }
  const FieldRef* fields = block.fields.data() + row.first_field;
  for (int64_t c = 0; c < num_columns; ++c) {
    ColumnDecoder& decoder = *decoders_[static_cast<size_t>(c)];
    const FieldRef& f = fields[c];
    const std::string_view value = block.Value(f, options_.dialect.quote, &scratch_[static_cast<size_t>(c)]);
    const bool is_null = (!f.quoted() && options_.IsNullText(value)) || (value.empty() && !decoder.is_string());
    const Field& field = *schema_->field(static_cast<int>(c));
    if (is_null) {
      if (!field.nullable()) {
        return RowError(block, row, record, f.begin, "null in non-nullable column '" + field.name() + "'")
            .WithField(field.name());
      }
      decoder.StageNull();
    } else if (!decoder.Stage(value)) {
      return RowError(block, row, record, f.begin,
                      "column '" + field.name() + "': cannot parse '" + Excerpt(value) + "' as " +
                          std::string(decoder.type_name()))
          .WithField(field.name());
    }
  }
  for (auto& decoder : decoders_) RETURN_NOT_OK(decoder->Commit());
  ++num_rows_;
  return Status::OK();
}

Result<std::shared_ptr<RecordBatch>> RowConverter::Finish() {
  std::vector<std::shared_ptr<ArrayData>> columns;
  columns.reserve(decoders_.size());
  for (auto& decoder : decoders_) {
    ASSIGN_OR_RETURN(auto column, decoder->Finish());
    columns.push_back(std::move(column));
  }
  const int64_t rows = num_rows_;
  num_rows_ = 0;
  return RecordBatch::Make(schema_, rows, std::move(columns));
}

}  // namespace recflow::csv
