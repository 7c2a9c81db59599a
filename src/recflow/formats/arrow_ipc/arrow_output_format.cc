// ArrowOutputFormat: schema message as the file header, one record batch message per run, EOS (and footer) at the end.
#include "recflow/formats/arrow_ipc/arrow_output_format.h"

#include <algorithm>

#include "recflow/columnar/element_access.h"
#include "recflow/columnar/take.h"
#include "recflow/formats/arrow_ipc/message_writer.h"

namespace recflow::arrow_ipc {

namespace {

/// A rough size of row `i` of `data` in an IPC body (for size-based sharding).
int64_t RowBytes(const ArrayData& data, int64_t i) {
  const DataType& type = *data.type;
  switch (type.id()) {
    case TypeId::kBinary: case TypeId::kUtf8: case TypeId::kLargeBinary: case TypeId::kLargeUtf8:
      return 8 + static_cast<int64_t>(BinaryValue(data, i).size());
    case TypeId::kList: case TypeId::kLargeList: case TypeId::kFixedSizeList: case TypeId::kMap: {
      const ChildRange range = ListRange(data, i);
      int64_t bytes = 8;
      for (int64_t k = 0; k < range.length; ++k) bytes += RowBytes(*data.children[0], range.start + k);
      return bytes;
    }
    case TypeId::kStruct: {
      int64_t bytes = 1;
      for (const auto& child : data.children) bytes += RowBytes(*child, data.offset + i);
      return bytes;
    }
    case TypeId::kBool: case TypeId::kNull: return 1;
    default: return std::max(1, type.bit_width() / 8);
  }
}

/// Measures rows: EncodedRecords with estimated sizes and no bytes.
class RowMeter final : public RecordEncoder {
 public:
  Status Encode(const RecordBatch& batch, std::span<const int64_t> rows, EncodedRecords* out) override {
    int64_t end = out->ends.empty() ? 0 : out->ends.back();
    for (int64_t row : rows) {
      for (int c = 0; c < batch.num_columns(); ++c) end += RowBytes(*batch.column_data(c), row);
      out->ends.push_back(end);
    }
    return Status::OK();
  }
};

class ArrowOutputFormat final : public OutputFormat, public BatchEncoding {
 public:
  ArrowOutputFormat(SchemaPtr schema, bool file_format, IpcWriteOptions options)
      : schema_(std::move(schema)), file_format_(file_format), options_(options) {}

  std::string name() const override { return file_format_ ? "feather" : "arrow"; }
  std::string suffix() const override { return file_format_ ? ".feather" : ".arrows"; }
  Result<std::unique_ptr<RecordEncoder>> NewEncoder() const override {
    return std::unique_ptr<RecordEncoder>(std::make_unique<RowMeter>());
  }
  std::string FileHeader() const override {
    return (file_format_ ? EncodeFileMagic() : std::string()) + EncodeSchemaMessage(*schema_);
  }
  const BatchEncoding* batch_encoding() const override { return this; }

  Result<EncodedBatch> EncodeBatch(const RecordBatch& batch, std::span<const int64_t> rows) const override {
    // A run of consecutive rows is a zero-copy slice; anything else is gathered.
    const bool consecutive = !rows.empty() && rows.back() - rows.front() + 1 == static_cast<int64_t>(rows.size()) &&
                             std::is_sorted(rows.begin(), rows.end());
    std::vector<std::shared_ptr<ArrayData>> columns;
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (consecutive) {
        columns.push_back(batch.column_data(c)->Slice(rows.front(), static_cast<int64_t>(rows.size())));
      } else {
        ASSIGN_OR_RETURN(auto taken, Take(*batch.column_data(c), rows));
        columns.push_back(std::move(taken));
      }
    }
    std::vector<const ArrayData*> pointers;
    for (const auto& column : columns) pointers.push_back(column.get());
    ASSIGN_OR_RETURN(EncodedMessage message,
                     EncodeRecordBatchMessage(pointers, static_cast<int64_t>(rows.size()), options_));
    EncodedBatch out;
    out.bytes = message.Bytes();  // while the columns it points into live
    out.block = {0, message.metadata_length, message.body_length};
    return out;
  }

  std::string FileTrailer(const std::vector<BatchBlock>& blocks) const override {
    std::string trailer = EncodeEndOfStream();
    if (!file_format_) return trailer;
    std::vector<MessageBlock> batches;
    for (const BatchBlock& b : blocks) batches.push_back({b.offset, b.metadata_length, b.body_length});
    return trailer + EncodeFileFooter(*schema_, {}, batches);
  }

 private:
  SchemaPtr schema_;
  bool file_format_;
  IpcWriteOptions options_;
};

bool HasDictionary(const DataType& type) {
  if (type.id() == TypeId::kDictionary) return true;
  return std::any_of(type.fields().begin(), type.fields().end(),
                     [](const FieldPtr& f) { return HasDictionary(*f->type()); });
}

}  // namespace

Result<std::shared_ptr<const OutputFormat>> MakeArrowOutputFormat(SchemaPtr schema, bool file_format,
                                                                  const IpcWriteOptions& options) {
  RETURN_NOT_OK(options.Validate());
  for (const FieldPtr& field : schema->fields()) {
    if (HasDictionary(*field->type())) {
      return Status::InvalidArgument("column '" + field->name() + "' is dictionary-encoded; Arrow output of dictionary "
                                     "columns is not supported by convert");
    }
  }
  return std::shared_ptr<const OutputFormat>(std::make_shared<ArrowOutputFormat>(std::move(schema), file_format, options));
}

}  // namespace recflow::arrow_ipc
