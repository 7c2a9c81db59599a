// ColumnDecoder: merge resolution (oneof switches, repeated values, replaced entries) and null/scalar/list shapes of one column.
#include "recflow/formats/example/column_decoder_internal.h"

#include <cstring>
#include <string>

#include "recflow/columnar/utf8.h"
#include "recflow/formats/example/message_internal.h"

namespace recflow::example {

using wire::Span;

Result<std::unique_ptr<ColumnDecoder>> ColumnDecoder::Make(const FieldPtr& field, const ColumnLayout& layout) {
  ASSIGN_OR_RETURN(std::unique_ptr<ArrayBuilder> root, MakeBuilder(field->type()));
  return std::unique_ptr<ColumnDecoder>(new ColumnDecoder(field, layout, std::move(root)));
}

ColumnDecoder::ColumnDecoder(FieldPtr field, const ColumnLayout& layout, std::unique_ptr<ArrayBuilder> root)
    : field_(std::move(field)), shape_(layout.shape), feature_list_(layout.feature_list), root_(std::move(root)) {
  ArrayBuilder* leaf = root_.get();
  if (shape_ == ColumnShape::kList || shape_ == ColumnShape::kListOfLists) {
    outer_ = static_cast<ListBuilder*>(root_.get());
    leaf = outer_->value_builder();
  }
  if (shape_ == ColumnShape::kListOfLists) {
    inner_ = static_cast<ListBuilder*>(leaf);
    leaf = inner_->value_builder();
  }
  if (shape_ != ColumnShape::kNull) sink_ = std::make_unique<ValueSink>(leaf);
  leaf_ = leaf;
  if (TakesOneList()) leaf_id_ = leaf->type()->id();
}

Result<std::shared_ptr<ArrayData>> ColumnDecoder::Finish() {
  last_rows_ = root_->length();
  last_steps_ = inner_ ? inner_->length() : 0;
  last_values_ = leaf_->length();
  last_bytes_ = leaf_->type()->is_binary_like() ? static_cast<BinaryBuilder*>(leaf_)->value_data_length() : 0;
  return root_->Finish();
}

Status ColumnDecoder::ReserveLikeLastBatch() {
  RETURN_NOT_OK(root_->Reserve(last_rows_));
  if (inner_) RETURN_NOT_OK(inner_->Reserve(last_steps_));
  if (leaf_ != root_.get()) RETURN_NOT_OK(leaf_->Reserve(last_values_));
  if (last_bytes_ > 0) RETURN_NOT_OK(static_cast<BinaryBuilder*>(leaf_)->ReserveData(last_bytes_));
  return Status::OK();
}

Status ColumnDecoder::Take(uint64_t serial, int64_t row, const std::vector<Span>& values) {
  if (serial_ == serial) [[unlikely]] root_->Truncate(row);  // a later entry replaces the earlier one wholly
  serial_ = serial;
  error_ = Status::OK();
  switch (shape_) {
    case ColumnShape::kNull:
      for (const Span& v : values) {
        RETURN_NOT_OK(feature_list_ ? msg::ValidateFeatureList(v, msg::kDepthFeatureList)
                                    : msg::ValidateFeature(v, msg::kDepthContextFeature));
      }
      return root_->AppendNull();
    case ColumnShape::kListOfLists:
      return TakeFeatureList(values);
    default:
      return TakeFeature(values);
  }
}

Status ColumnDecoder::TakeList(uint64_t serial, FeatureKind kind, const Span& list) {
  serial_ = serial;
  error_ = Status::OK();
  sink_->BeginFeature();
  RETURN_NOT_OK(TakeMember(outer_, kind, list, msg::kDepthContextFeature));
  return EndFeature();
}

Status ColumnDecoder::BeginRow(uint64_t serial) {
  serial_ = serial;
  if (!error_.ok()) [[unlikely]] error_ = Status::OK();
  return outer_ != nullptr ? outer_->Append() : Status::OK();
}

template <typename T, typename Fill>
Status ColumnDecoder::AppendValues(int64_t count, Fill&& fill) {
  if (count == 0) return Status::OK();  // an empty list
  T* out;
  RETURN_NOT_OK(static_cast<NumericBuilder<T>*>(leaf_)->AppendUninitialized(count, &out));
  fill(out);
  return Status::OK();
}

Status ColumnDecoder::TakeRun(uint64_t serial, FeatureKind kind, const Span& list, const Span& run) {
  switch (kind) {
    case FeatureKind::kFloatList:
      if (leaf_id_ == TypeId::kFloat32 && run.size() % 4 == 0 && Copies(run.size() / 4)) {
        RETURN_NOT_OK(BeginRow(serial));
        return AppendValues<float>(run.size() / 4, [&](float* out) {
          std::memcpy(out, run.begin, static_cast<size_t>(run.size()));
        });
      }
      break;
    case FeatureKind::kInt64List: {
      const int64_t count = leaf_id_ == TypeId::kInt64 ? wire::CountPackedVarints(run) : -1;
      if (count >= 0 && Copies(count)) {
        RETURN_NOT_OK(BeginRow(serial));
        return AppendValues<int64_t>(count, [&](int64_t* out) {
          const uint8_t* p = run.begin;
          for (int64_t i = 0; i < count; ++i) out[i] = static_cast<int64_t>(wire::DecodeVarintUnchecked(p));
        });
      }
      break;
    }
    default:  // one bytes value
      if ((leaf_id_ == TypeId::kBinary || (leaf_id_ == TypeId::kUtf8 && IsValidUtf8(run.begin, run.size()))) &&
          Copies(1)) {
        auto* bytes = static_cast<BinaryBuilder*>(leaf_);
        if (bytes->value_data_length() + run.size() <= kMaxInt32Offset) {
          RETURN_NOT_OK(BeginRow(serial));
          return bytes->Append(run.begin, run.size());
        }
      }
      break;
  }
  return TakeList(serial, kind, list);
}

Status ColumnDecoder::TakeMember(ListBuilder* lists, FeatureKind kind, const Span& list, int depth) {
  if (lists != nullptr && sink_->kind() == FeatureKind::kNone) RETURN_NOT_OK(lists->Append());
  sink_->SetKind(kind);
  return sink_->AppendList(list, depth + 1);
}

Status ColumnDecoder::TakeFeature(const std::vector<Span>& features) {
  sink_->BeginFeature();
  for (const Span& f : features) {
    RETURN_NOT_OK(msg::ForEachMember(f, msg::kDepthContextFeature, [this](FeatureKind kind, Span list) {
      return TakeMember(outer_, kind, list, msg::kDepthContextFeature);
    }));
  }
  return EndFeature();
}

Status ColumnDecoder::EndFeature() {
  if (sink_->kind() == FeatureKind::kNone) return AppendNullRow();  // a Feature with no kind is null
  if (shape_ == ColumnShape::kScalar) {
    const int64_t count = sink_->count();
    if (count > 1) [[unlikely]] {
      error_ = Status::DataError("a list of " + std::to_string(count) + " values in a scalar column");
      return Status::OK();
    }
    if (count == 0) return AppendNullRow();
  }
  error_ = sink_->EndFeature();
  return Status::OK();
}

Status ColumnDecoder::TakeFeatureList(const std::vector<Span>& feature_lists) {
  RETURN_NOT_OK(outer_->Append());
  RETURN_NOT_OK(msg::ForEachStep(feature_lists.data(), feature_lists.size(), msg::kDepthFeatureList, [this](Span f) {
    sink_->BeginFeature();
    RETURN_NOT_OK(msg::ForEachMember(f, msg::kDepthStepFeature, [this](FeatureKind kind, Span list) {
      return TakeMember(inner_, kind, list, msg::kDepthStepFeature);
    }));
    if (sink_->kind() == FeatureKind::kNone) return inner_->AppendNull();  // a step with no kind
    if (error_.ok()) error_ = sink_->EndFeature();
    return Status::OK();
  }));
  if (error_.ok() && inner_->length() > kMaxInt32Offset) {
    error_ = Status::DataError("the column would exceed 2^31-1 steps in one batch");
  }
  return Status::OK();
}

Status ColumnDecoder::AppendNullRow() {
  if (!field_->nullable()) {
    error_ = Status::TypeError("missing value in a non-nullable column");
    return Status::OK();
  }
  return root_->AppendNull();
}

Status ColumnDecoder::EndRow(uint64_t serial) {
  if (serial_ == serial) return error_;
  if (shape_ == ColumnShape::kNull || field_->nullable()) return root_->AppendNull();
  return Status::TypeError("missing value in a non-nullable column");
}

}  // namespace recflow::example
