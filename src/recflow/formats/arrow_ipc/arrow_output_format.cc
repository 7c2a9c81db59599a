// ArrowOutputFormat: schema message as the file header, one record batch message per run after the dictionaries it needs, EOS (and footer) at the end.
#include "recflow/formats/arrow_ipc/arrow_output_format.h"

#include <algorithm>

#include "recflow/columnar/element_access.h"
#include "recflow/columnar/take.h"
#include "recflow/formats/arrow_ipc/dictionary_plan_internal.h"
#include "recflow/formats/arrow_ipc/message_writer.h"
#include "recflow/formats/arrow_ipc/schema_writer_internal.h"

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

/// The dictionaries one data file holds so far.
class ArrowFileState final : public BatchFileState {
 public:
  explicit ArrowFileState(DictionaryTracker tracker) : tracker(std::move(tracker)) {}
  DictionaryTracker tracker;
};

/// The dictionary batches and index rewrites of one run.
class ArrowBatchPlan final : public BatchPlan {
 public:
  explicit ArrowBatchPlan(DictionaryPlan plan) : plan(std::move(plan)) {}
  DictionaryPlan plan;
};

class ArrowOutputFormat final : public OutputFormat, public BatchEncoding {
 public:
  ArrowOutputFormat(SchemaPtr schema, bool file_format, IpcWriteOptions options)
      : schema_(std::move(schema)),
        file_format_(file_format),
        options_(options),
        dictionaries_(ListDictionaries(*schema_)) {}

  std::string name() const override { return file_format_ ? "feather" : "arrow"; }
  std::string suffix() const override { return file_format_ ? ".feather" : ".arrows"; }
  Result<std::unique_ptr<RecordEncoder>> NewEncoder() const override {
    return std::unique_ptr<RecordEncoder>(std::make_unique<RowMeter>());
  }
  std::string FileHeader() const override {
    return (file_format_ ? EncodeFileMagic() : std::string()) + EncodeSchemaMessage(*schema_);
  }
  const BatchEncoding* batch_encoding() const override { return this; }

  // Streams replace a changed dictionary; files, which cannot, unify it with the file's (see
  // docs/formats/arrow_ipc_writing.md, "Dictionaries in convert's output").
  std::unique_ptr<BatchFileState> NewFileState() const override {
    return std::make_unique<ArrowFileState>(DictionaryTracker(
        *schema_, dictionaries_, file_format_ ? DictionaryChange::kUnify : DictionaryChange::kReplace));
  }

  Result<std::shared_ptr<const BatchPlan>> PlanBatch(BatchFileState* state, const RecordBatch& batch) const override {
    if (dictionaries_.empty()) return std::shared_ptr<const BatchPlan>();
    ASSIGN_OR_RETURN(DictionaryPlan plan, static_cast<ArrowFileState*>(state)->tracker.Plan(batch));
    if (plan.updates.empty() && plan.remaps.empty()) return std::shared_ptr<const BatchPlan>();
    return std::shared_ptr<const BatchPlan>(std::make_shared<ArrowBatchPlan>(std::move(plan)));
  }

  Result<EncodedBatch> EncodeBatch(const RecordBatch& batch, std::span<const int64_t> rows,
                                   const BatchPlan* plan) const override {
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
    EncodedBatch out;
    if (plan != nullptr) {
      const DictionaryPlan& dictionaries = static_cast<const ArrowBatchPlan*>(plan)->plan;
      for (const DictionaryUpdate& update : dictionaries.updates) {
        ASSIGN_OR_RETURN(EncodedMessage message,
                         EncodeDictionaryMessage(update.id, *update.values, update.is_delta, options_));
        out.dictionary_blocks.push_back(
            {static_cast<int64_t>(out.bytes.size()), message.metadata_length, message.body_length});
        out.bytes += message.Bytes();
      }
      ASSIGN_OR_RETURN(columns, ApplyRemaps(dictionaries, dictionaries_, std::move(columns)));
    }
    std::vector<const ArrayData*> pointers;
    for (const auto& column : columns) pointers.push_back(column.get());
    ASSIGN_OR_RETURN(EncodedMessage message,
                     EncodeRecordBatchMessage(pointers, static_cast<int64_t>(rows.size()), options_));
    out.block = {static_cast<int64_t>(out.bytes.size()), message.metadata_length, message.body_length};
    out.bytes += message.Bytes();  // while the columns it points into live
    return out;
  }

  std::string FileTrailer(const std::vector<BatchBlock>& dictionaries,
                          const std::vector<BatchBlock>& blocks) const override {
    std::string trailer = EncodeEndOfStream();
    if (!file_format_) return trailer;
    const auto convert = [](const std::vector<BatchBlock>& from) {
      std::vector<MessageBlock> to;
      for (const BatchBlock& b : from) to.push_back({b.offset, b.metadata_length, b.body_length});
      return to;
    };
    return trailer + EncodeFileFooter(*schema_, convert(dictionaries), convert(blocks));
  }

 private:
  SchemaPtr schema_;
  bool file_format_;
  IpcWriteOptions options_;
  std::vector<DictionaryField> dictionaries_;
};

}  // namespace

Result<std::shared_ptr<const OutputFormat>> MakeArrowOutputFormat(SchemaPtr schema, bool file_format,
                                                                  const IpcWriteOptions& options) {
  RETURN_NOT_OK(options.Validate());
  return std::shared_ptr<const OutputFormat>(std::make_shared<ArrowOutputFormat>(std::move(schema), file_format, options));
}

}  // namespace recflow::arrow_ipc
