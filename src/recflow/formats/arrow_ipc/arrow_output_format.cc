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

/// offsets[start + length] - offsets[start] of a binary array with `Offset` offsets.
template <typename Offset>
int64_t OffsetSpan(const ArrayData& data, int64_t start, int64_t length) {
  const Offset* offsets = data.GetValues<Offset>(1);
  return static_cast<int64_t>(offsets[start + length]) - static_cast<int64_t>(offsets[start]);
}

/// A rough size of elements [start, start + length) (logical) of `data` in an IPC body, for
/// size-based sharding: the sum of per-element sizes, taken from the offsets, so a range costs
/// one step per nesting level and struct field however many values it holds.
int64_t RangeBytes(const ArrayData& data, int64_t start, int64_t length) {
  if (length == 0) return 0;
  const DataType& type = *data.type;
  switch (type.id()) {
    case TypeId::kBinary: case TypeId::kUtf8: return 8 * length + OffsetSpan<int32_t>(data, start, length);
    case TypeId::kLargeBinary: case TypeId::kLargeUtf8: return 8 * length + OffsetSpan<int64_t>(data, start, length);
    case TypeId::kList: case TypeId::kLargeList: case TypeId::kFixedSizeList: case TypeId::kMap: {
      const int64_t first = ListRange(data, start).start;
      const ChildRange last = ListRange(data, start + length - 1);
      return 8 * length + RangeBytes(*data.children[0], first, last.start + last.length - first);
    }
    case TypeId::kListView: case TypeId::kLargeListView: {  // each element's own range of the child
      int64_t bytes = 16 * length;
      for (int64_t i = start; i < start + length; ++i) {
        const ChildRange range = ListRange(data, i);
        bytes += RangeBytes(*data.children[0], range.start, range.length);
      }
      return bytes;
    }
    case TypeId::kBinaryView: case TypeId::kUtf8View: {  // views, and the bytes of those not inline
      int64_t bytes = kViewBytes * length;
      for (int64_t i = start; i < start + length; ++i) {
        if (!IsValidAt(data, i)) continue;  // a null's view is not read
        const auto size = static_cast<int64_t>(BinaryValue(data, i).size());
        if (size > kInlineViewBytes) bytes += size;
      }
      return bytes;
    }
    case TypeId::kRunEndEncoded: {  // the runs the range touches: their ends and values
      const int64_t first = RunIndex(data, start);
      const int64_t runs = RunIndex(data, start + length - 1) - first + 1;
      return RangeBytes(*data.children[0], first, runs) + RangeBytes(*data.children[1], first, runs);
    }
    case TypeId::kStruct: {
      int64_t bytes = length;
      for (const auto& child : data.children) bytes += RangeBytes(*child, data.offset + start, length);
      return bytes;
    }
    case TypeId::kBool: case TypeId::kNull: return length;
    default: return length * std::max(1, type.bit_width() / 8);
  }
}

/// `block` as the sink records it.
BatchBlock ToBatchBlock(const MessageBlock& block) {
  return {block.offset, block.metadata_length, block.body_length};
}

/// The messages of one encoded run and what their pieces point into: the columns encoded and
/// the dictionary values written before them.
struct HeldMessages {
  EncodedBatchMessages messages;
  std::vector<std::shared_ptr<ArrayData>> columns;
  std::vector<DictionaryUpdate> updates;
};

/// Measures rows: EncodedRecords with estimated sizes and no bytes.
class RowMeter final : public RecordEncoder {
 public:
  Status Encode(const RecordBatch& batch, std::span<const int64_t> rows, EncodedRecords* out) override {
    int64_t end = out->ends.empty() ? 0 : out->ends.back();
    for (int64_t row : rows) {
      for (int c = 0; c < batch.num_columns(); ++c) end += RangeBytes(*batch.column_data(c), row, 1);
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
    std::span<const DictionaryUpdate> updates;
    if (plan != nullptr) {
      const DictionaryPlan& dictionaries = static_cast<const ArrowBatchPlan*>(plan)->plan;
      updates = dictionaries.updates;
      ASSIGN_OR_RETURN(columns, ApplyRemaps(dictionaries, dictionaries_, std::move(columns)));
    }
    std::vector<const ArrayData*> pointers;
    for (const auto& column : columns) pointers.push_back(column.get());
    auto held = std::make_shared<HeldMessages>();
    ASSIGN_OR_RETURN(held->messages,
                     arrow_ipc::EncodeBatch(updates, pointers, static_cast<int64_t>(rows.size()), options_));
    held->columns = std::move(columns);
    held->updates.assign(updates.begin(), updates.end());
    EncodedBatch out;
    held->messages.AppendPieces(&out.pieces);
    out.size = held->messages.size();
    for (const MessageBlock& block : held->messages.dictionary_blocks) {
      out.dictionary_blocks.push_back(ToBatchBlock(block));
    }
    out.block = ToBatchBlock(held->messages.batch_block);
    out.keep = std::move(held);
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
