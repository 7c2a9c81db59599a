// CsvOutputFormat and its encoder: one RFC 4180 row per record.
#include "recflow/formats/csv/csv_output_format.h"

#include <string_view>
#include <vector>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/value_formatting.h"
#include "recflow/formats/encode_rows.h"

namespace recflow::csv {
namespace {

bool IsLineByte(char c) { return c == '\n' || c == '\r'; }

// TypeError naming the column when CSV cannot hold its values: every type but the ones the encoder
// writes (null, bool, integers, float32/64, utf8).
Status CheckColumn(const Field& field) {
  const DataType& type = *field.type();
  switch (type.id()) {
    case TypeId::kNull:
    case TypeId::kBool:
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
    case TypeId::kFloat32:
    case TypeId::kFloat64:
    case TypeId::kUtf8: return Status::OK();
    case TypeId::kBinary:
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary:
      // No CSV text gives the bytes back: raw bytes are not text, and base64 would read back as
      // the base64 string.
      return Status::TypeError("binary values have no CSV text; cast the column to utf8 or write JSON Lines or TFRecord")
          .WithField(field.name());
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
    case TypeId::kMap:
    case TypeId::kStruct:
      return Status::TypeError("CSV holds scalar values only, not " + type.ToString()).WithField(field.name());
    default:
      return Status::TypeError("CSV output has no text for " + type.ToString() +
                               " values; cast the column or write JSON Lines, TFRecord or Arrow")
          .WithField(field.name());
  }
}

// The text of fields: quoting and the null spelling.
class FieldWriter {
 public:
  explicit FieldWriter(const WriteOptions& options)
      : quote_(options.quote), null_text_(options.null_text), specials_{options.delimiter, options.quote, '\r', '\n'} {}

  // Appends `text` to *out, quoted when it needs to be.
  void Append(std::string_view text, std::string* out) const {
    if (!NeedsQuotes(text)) {
      out->append(text);
      return;
    }
    out->push_back(quote_);
    for (const char c : text) {
      if (c == quote_) out->push_back(c);
      out->push_back(c);
    }
    out->push_back(quote_);
  }

  // Appends a null; `alone` when it would be the whole row (an empty line, which readers skip).
  void AppendNull(bool alone, std::string* out) const {
    if (alone && null_text_.empty()) {
      out->append(2, quote_);  // recflow reads "" as null in typed columns
    } else {
      out->append(null_text_);
    }
  }

 private:
  bool NeedsQuotes(std::string_view text) const {
    if (text.empty() || text == null_text_) return true;
    const auto is_space = [](char c) { return c == ' ' || c == '\t'; };
    if (is_space(text.front()) || is_space(text.back())) return true;
    return text.find_first_of(std::string_view(specials_, sizeof(specials_))) != std::string_view::npos;
  }

  char quote_;
  std::string null_text_;
  char specials_[4];  // bytes that force quotes: delimiter, quote, CR, LF
};

class CsvEncoder final : public RecordEncoder {
 public:
  CsvEncoder(SchemaPtr schema, const WriteOptions& options)
      : schema_(std::move(schema)), options_(options), fields_(options) {
    for (const FieldPtr& field : schema_->fields()) timestamp_.push_back(IsTimestampField(*field));
  }

  Status Encode(const RecordBatch& batch, std::span<const int64_t> rows, EncodedRecords* out) override {
    return EncodeRows(*schema_, batch, rows, out, [&](int64_t row) {
      for (int c = 0; c < batch.num_columns(); ++c) {
        if (c > 0) out->bytes.push_back(options_.delimiter);
        Status st = AppendValue(c, *batch.column_data(c), row, &out->bytes);
        if (!st.ok()) [[unlikely]] return st.WithField(schema_->field(c)->name());
      }
      out->bytes.append(options_.line_terminator);
      return Status::OK();
    });
  }

 private:
  template <typename T>
  static T ValueAt(const ArrayData& data, int64_t i) {
    return data.GetValues<T>(1)[i];
  }

  Status AppendValue(int c, const ArrayData& data, int64_t i, std::string* out) {
    const TypeId id = data.type->id();
    if (id == TypeId::kNull || (data.null_count > 0 && !bit_util::GetBit(data.validity(), data.offset + i))) {
      fields_.AppendNull(schema_->num_fields() == 1, out);
      return Status::OK();
    }
    if (id == TypeId::kUtf8) {
      const int32_t* offsets = data.GetValues<int32_t>(1);
      const auto* bytes = reinterpret_cast<const char*>(data.buffers[2]->data());
      fields_.Append({bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])}, out);
      return Status::OK();
    }
    text_.clear();
    switch (id) {
      case TypeId::kBool: text_ = bit_util::GetBit(data.buffers[1]->data(), data.offset + i) ? "true" : "false"; break;
      case TypeId::kInt8: AppendInteger(ValueAt<int8_t>(data, i), &text_); break;
      case TypeId::kInt16: AppendInteger(ValueAt<int16_t>(data, i), &text_); break;
      case TypeId::kInt32: AppendInteger(ValueAt<int32_t>(data, i), &text_); break;
      case TypeId::kInt64:
        if (timestamp_[static_cast<size_t>(c)]) {
          char text[kTimestampTextSize];
          RETURN_NOT_OK(FormatTimestamp(ValueAt<int64_t>(data, i), text));
          text_.assign(text, sizeof(text));
        } else {
          AppendInteger(ValueAt<int64_t>(data, i), &text_);
        }
        break;
      case TypeId::kUInt8: AppendInteger(ValueAt<uint8_t>(data, i), &text_); break;
      case TypeId::kUInt16: AppendInteger(ValueAt<uint16_t>(data, i), &text_); break;
      case TypeId::kUInt32: AppendInteger(ValueAt<uint32_t>(data, i), &text_); break;
      case TypeId::kUInt64: AppendInteger(ValueAt<uint64_t>(data, i), &text_); break;
      case TypeId::kFloat32: AppendFloat(ValueAt<float>(data, i), &text_); break;
      case TypeId::kFloat64: AppendFloat(ValueAt<double>(data, i), &text_); break;
      default: return Status::Internal("CSV encoder: unexpected type " + data.type->ToString());  // CheckColumn
    }
    fields_.Append(text_, out);
    return Status::OK();
  }

  SchemaPtr schema_;
  WriteOptions options_;
  FieldWriter fields_;
  std::vector<bool> timestamp_;  // per column: IsTimestampField
  std::string text_;             // scratch for one non-string value
};

class CsvOutputFormat final : public OutputFormat {
 public:
  CsvOutputFormat(SchemaPtr schema, WriteOptions options) : schema_(std::move(schema)), options_(std::move(options)) {}

  std::string name() const override { return "csv"; }
  std::string suffix() const override { return ".csv"; }
  Result<std::unique_ptr<RecordEncoder>> NewEncoder() const override {
    return std::unique_ptr<RecordEncoder>(new CsvEncoder(schema_, options_));
  }
  std::string FileHeader() const override {
    if (!options_.header) return {};
    const FieldWriter fields(options_);
    std::string header;
    for (int c = 0; c < schema_->num_fields(); ++c) {
      if (c > 0) header.push_back(options_.delimiter);
      fields.Append(schema_->field(c)->name(), &header);
    }
    return header + options_.line_terminator;
  }

 private:
  SchemaPtr schema_;
  WriteOptions options_;
};

}  // namespace

Status WriteOptions::Validate() const {
  if (IsLineByte(delimiter) || IsLineByte(quote)) return Status::InvalidArgument("csv delimiter and quote must not be CR or LF");
  if (delimiter == quote) return Status::InvalidArgument("csv delimiter and quote must differ");
  if (line_terminator != "\n" && line_terminator != "\r\n") {
    return Status::InvalidArgument("csv line terminator must be LF or CR LF");
  }
  if (null_text.find_first_of(std::string{delimiter, quote, '\r', '\n'}) != std::string::npos) {
    return Status::InvalidArgument("csv null text must not hold the delimiter, the quote, CR or LF");
  }
  return Status::OK();
}

Result<std::shared_ptr<const OutputFormat>> MakeCsvOutputFormat(SchemaPtr schema, const WriteOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (schema == nullptr) return Status::InvalidArgument("MakeCsvOutputFormat: null schema");
  if (schema->num_fields() == 0) return Status::InvalidArgument("CSV output needs at least one column");
  for (const FieldPtr& field : schema->fields()) RETURN_NOT_OK(CheckColumn(*field));
  return std::shared_ptr<const OutputFormat>(std::make_shared<CsvOutputFormat>(std::move(schema), options));
}

}  // namespace recflow::csv
