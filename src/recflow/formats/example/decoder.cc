// Decoder: one walk over a record's map entries appends each column's Feature (a record laid out as one of the
// records before it: the lists straight from a framing walk or a frame compare); a failed record is truncated away.
#include "recflow/formats/example/decoder.h"

#include <vector>

#include "recflow/columnar/utf8.h"
#include "recflow/formats/example/column_decoder_internal.h"
#include "recflow/formats/example/message_internal.h"
#include "recflow/formats/example/name_table_internal.h"
#include "recflow/formats/example/record_layouts_internal.h"

namespace recflow::example {

using wire::Span;

class DecoderImpl {
 public:
  DecoderImpl(SchemaPtr schema, RecordType type) : schema_(std::move(schema)), type_(type) {}

  Status Init() {
    if (type_ == RecordType::kByteArray) {
      if (schema_->num_fields() != 1 || !schema_->field(0)->type()->is_binary_like()) {
        return Status::TypeError("the bytes record type needs a schema of one binary or utf8 column, got:\n" +
                                 schema_->ToString());
      }
      ASSIGN_OR_RETURN(raw_, MakeBuilder(schema_->field(0)->type()));
      return Status::OK();
    }
    for (int i = 0; i < schema_->num_fields(); ++i) {
      const FieldPtr& field = schema_->field(i);
      ASSIGN_OR_RETURN(ColumnLayout layout, LayoutOf(*field, type_));
      const bool feature_list = layout.feature_list;
      ASSIGN_OR_RETURN(std::unique_ptr<ColumnDecoder> column, ColumnDecoder::Make(field, layout));
      NameTable& table = feature_list ? feature_lists_ : context_;
      if (!table.Add(field->name(), i)) {
        return Status::InvalidArgument("column '" + field->name() + "' appears twice in the " +
                                       (feature_list ? "feature lists" : "features"));
      }
      columns_.push_back(std::move(column));
    }
    return Status::OK();
  }

  Status Append(std::string_view record) {
    if (type_ == RecordType::kByteArray) return AppendRaw(record);
    if (reserve_pending_) [[unlikely]] {
      for (auto& column : columns_) RETURN_NOT_OK(column->ReserveLikeLastBatch());
      reserve_pending_ = false;
    }
    ++serial_;
    touched_ = 0;
    column_error_ = false;
    const Span span = wire::SpanOf(record);
    bool framed = false;
    const RecordLayout* layout =
        type_ == RecordType::kExample ? layouts_.Match(span, &layout_lists_, &framed) : nullptr;
    Status st = layout != nullptr ? TakeLaidOut(*layout, framed, span) : Walk(span);
    // Every column had its feature without error: every row is complete.
    if (st.ok() && (touched_ != columns_.size() || column_error_)) st = EndRow();
    if (!st.ok()) [[unlikely]] {
      for (auto& column : columns_) column->Truncate(num_rows_);
      return st;
    }
    ++num_rows_;
    return Status::OK();
  }

  Result<std::shared_ptr<RecordBatch>> Finish() {
    std::vector<std::shared_ptr<ArrayData>> arrays;
    if (raw_) {
      ASSIGN_OR_RETURN(auto a, raw_->Finish());
      arrays.push_back(std::move(a));
    }
    for (auto& column : columns_) {
      ASSIGN_OR_RETURN(auto a, column->Finish());
      arrays.push_back(std::move(a));
    }
    const int64_t rows = num_rows_;
    num_rows_ = 0;
    reserve_pending_ = true;
    return RecordBatch::Make(schema_, rows, std::move(arrays));
  }

  int64_t num_rows() const { return num_rows_; }
  const SchemaPtr& schema() const { return schema_; }
  RecordType type() const { return type_; }

 private:
  Status AppendRaw(std::string_view record) {
    auto* b = static_cast<BinaryBuilder*>(raw_.get());
    if (b->type()->id() == TypeId::kUtf8 && !IsValidUtf8(record)) {
      return Status::DataError("record is not valid UTF-8 (utf8 column)").WithField(schema_->field(0)->name());
    }
    RETURN_NOT_OK(b->Append(record));  // nothing is appended on error
    ++num_rows_;
    return Status::OK();
  }

  // Appends the list of each entry of `record`, which matched `layout` (no entry names a column
  // twice): with its frame (`framed`) each list, and its one packed run, where the frame's holes
  // say; else the lists in layout_lists_. A list that is one packed field goes by its run.
  Status TakeLaidOut(const RecordLayout& layout, bool framed, const Span& record) {
    const std::vector<RecordLayout::Entry>& entries = layout.entries();
    const std::vector<RecordFrame::Hole>& holes = layout.frame().holes();
    for (size_t i = 0; i < entries.size(); ++i) {
      ColumnDecoder& column = *columns_[static_cast<size_t>(entries[i].column)];
      Span list, run;
      bool one_field;
      if (framed) {
        list = holes[i].List(record);
        one_field = holes[i].run;
        if (one_field) run = holes[i].Run(record);
      } else {
        list = layout_lists_[i];
        one_field = msg::OnePackedField(list, &run);
      }
      Status st = one_field ? column.TakeRun(serial_, entries[i].kind, list, run)
                            : column.TakeList(serial_, entries[i].kind, list);
      if (!st.ok()) [[unlikely]] return st.WithField(entries[i].key);
      if (!column.error().ok()) [[unlikely]] column_error_ = true;
    }
    touched_ = entries.size();
    return Status::OK();
  }

  // WalkEntries(), then learns the record's layout for the next records (after a record that is not
  // plain, or while the learned layouts are lost, only every kLearnEvery records: not every record
  // pays for a second framing walk).
  Status Walk(Span record) {
    RETURN_NOT_OK(WalkEntries(record));
    if (type_ != RecordType::kExample || --learn_countdown_ > 0) return Status::OK();
    const auto column_of = [this](std::string_view key, size_t position) {
      const int index = context_.Find(key, position);
      return index >= 0 && columns_[static_cast<size_t>(index)]->TakesOneList() ? index : -1;
    };
    const bool plain = layouts_.Learn(record, static_cast<int>(columns_.size()), column_of);
    learn_countdown_ = plain && !layouts_.lost() ? 1 : kLearnEvery;
    return Status::OK();
  }

  // Appends the Feature of every map entry that names a column; validates the others as
  // libprotobuf would parse them.
  Status WalkEntries(Span record) {
    size_t context_position = 0;
    size_t list_position = 0;
    return msg::ForEachMap(type_, record, [&](bool is_lists, Span map) {
      NameTable& table = is_lists ? feature_lists_ : context_;
      size_t& position = is_lists ? list_position : context_position;
      return msg::ForEachMapEntry(map, &entry_values_, [&](Span key, const std::vector<Span>& values) {
        const int index = table.Find(key.view(), position++);  // column names are valid UTF-8
        if (index < 0) {
          RETURN_NOT_OK(msg::CheckKey(key));
          for (const Span& v : values) {
            Status st = is_lists ? msg::ValidateFeatureList(v, msg::kDepthFeatureList)
                                 : msg::ValidateFeature(v, msg::kDepthContextFeature);
            if (!st.ok()) return st.WithField(key.view());
          }
          return Status::OK();
        }
        ColumnDecoder& column = *columns_[static_cast<size_t>(index)];
        if (!column.present(serial_)) ++touched_;
        Status st = column.Take(serial_, num_rows_, values);
        if (!st.ok()) [[unlikely]] return st.WithField(key.view());
        if (!column.error().ok()) [[unlikely]] column_error_ = true;
        return Status::OK();
      });
    });
  }

  // Ends the row of every column, in schema order: the first column error fails the record.
  Status EndRow() {
    for (auto& column : columns_) {
      Status st = column->EndRow(serial_);
      if (!st.ok()) [[unlikely]] return st.WithField(column->name());
    }
    return Status::OK();
  }

  SchemaPtr schema_;
  RecordType type_;
  std::vector<std::unique_ptr<ColumnDecoder>> columns_;  // schema order (none for kByteArray)
  std::unique_ptr<ArrayBuilder> raw_;                    // kByteArray
  NameTable context_;
  NameTable feature_lists_;
  uint64_t serial_ = 0;
  int64_t num_rows_ = 0;
  bool reserve_pending_ = false;  // the first record of a batch reserves like the last batch
  size_t touched_ = 0;            // columns the record had
  bool column_error_ = false;     // a column error was seen in the record
  std::vector<Span> entry_values_;
  // kExample: the layouts of the last plain records, and the list messages of a record matching one.
  static constexpr int kLearnEvery = 64;
  RecordLayouts layouts_;
  std::vector<Span> layout_lists_;
  int learn_countdown_ = 1;  // records walked until the next Learn
};

Result<std::unique_ptr<Decoder>> Decoder::Make(SchemaPtr schema, RecordType type) {
  if (!schema) return Status::InvalidArgument("Decoder::Make: null schema");
  auto impl = std::make_unique<DecoderImpl>(std::move(schema), type);
  RETURN_NOT_OK(impl->Init());
  return std::unique_ptr<Decoder>(new Decoder(std::move(impl)));
}

Decoder::Decoder(std::unique_ptr<DecoderImpl> impl) : impl_(std::move(impl)) {}
Decoder::~Decoder() = default;
Status Decoder::Append(std::string_view record) { return impl_->Append(record); }
int64_t Decoder::num_rows() const { return impl_->num_rows(); }
Result<std::shared_ptr<RecordBatch>> Decoder::Finish() { return impl_->Finish(); }
const SchemaPtr& Decoder::schema() const { return impl_->schema(); }
RecordType Decoder::record_type() const { return impl_->type(); }

}  // namespace recflow::example
