// ColumnDecoder: merge resolution, null/scalar/list shapes and appends of one column.
#include "recflow/formats/example/column_decoder_internal.h"

#include <string>

#include "recflow/formats/example/message_internal.h"

namespace recflow::example {

using wire::Span;

Result<std::unique_ptr<ColumnDecoder>> ColumnDecoder::Make(const FieldPtr& field, const ColumnLayout& layout) {
  ASSIGN_OR_RETURN(std::unique_ptr<ArrayBuilder> root, MakeBuilder(field->type()));
  return std::unique_ptr<ColumnDecoder>(new ColumnDecoder(field, layout.shape, std::move(root)));
}

ColumnDecoder::ColumnDecoder(FieldPtr field, ColumnShape shape, std::unique_ptr<ArrayBuilder> root)
    : field_(std::move(field)), shape_(shape), root_(std::move(root)) {
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
}

Result<std::shared_ptr<ArrayData>> ColumnDecoder::Finish() {
  last_rows_ = root_->length();
  last_steps_ = inner_ ? inner_->length() : 0;
  last_values_ = leaf_->length();
  last_bytes_ = leaf_->type()->is_binary_like() ? static_cast<BinaryBuilder*>(leaf_)->value_data_length() : 0;
  reserve_pending_ = true;
  return root_->Finish();
}

Status ColumnDecoder::ReserveLikeLastBatch() {
  reserve_pending_ = false;
  RETURN_NOT_OK(root_->Reserve(last_rows_));
  if (inner_) RETURN_NOT_OK(inner_->Reserve(last_steps_));
  if (leaf_ != root_.get()) RETURN_NOT_OK(leaf_->Reserve(last_values_));
  if (last_bytes_ > 0) RETURN_NOT_OK(static_cast<BinaryBuilder*>(leaf_)->ReserveData(last_bytes_));
  return Status::OK();
}

void ColumnDecoder::Set(uint64_t serial, const std::vector<Span>& values, std::vector<Span>* replaced) {
  replaced->clear();
  if (serial_ == serial) replaced->swap(values_);
  serial_ = serial;
  values_.assign(values.begin(), values.end());
}

Status ColumnDecoder::CheckNull() const {
  if (field_->nullable() || shape_ == ColumnShape::kNull) return Status::OK();
  return Status::TypeError("missing value in a non-nullable column");
}

Status ColumnDecoder::Check(uint64_t serial) {
  is_null_ = true;
  if (shape_ == ColumnShape::kNull) return Status::OK();
  lists_.clear();
  steps_.clear();
  sink_->BeginRow();
  if (serial_ != serial) return CheckNull();
  if (shape_ == ColumnShape::kListOfLists) {
    RETURN_NOT_OK(msg::ForEachStep(values_.data(), values_.size(), msg::kDepthFeatureList, [this](Span f) {
      Resolved r;
      r.first_list = static_cast<uint32_t>(lists_.size());
      RETURN_NOT_OK(
          msg::ResolveFeature(&f, 1, msg::kDepthStepFeature, &r.kind, &lists_, r.first_list, &r.count));
      r.num_lists = static_cast<uint32_t>(lists_.size()) - r.first_list;
      steps_.push_back(r);
      return sink_->Check(r.kind, lists_.data() + r.first_list, r.num_lists, r.count);
    }));
    if (inner_->length() + static_cast<int64_t>(steps_.size()) > kMaxInt32Offset) {
      return Status::DataError("the column would exceed 2^31-1 steps in one batch");
    }
    is_null_ = false;
    return Status::OK();
  }
  Resolved r;
  RETURN_NOT_OK(msg::ResolveFeature(values_.data(), values_.size(), msg::kDepthContextFeature, &r.kind, &lists_, 0,
                                    &r.count));
  r.num_lists = static_cast<uint32_t>(lists_.size());
  if (r.kind == FeatureKind::kNone) return CheckNull();  // a Feature with no kind is null
  if (shape_ == ColumnShape::kScalar) {
    if (r.count > 1) {
      return Status::DataError("a list of " + std::to_string(r.count) + " values in a scalar column");
    }
    if (r.count == 0) return CheckNull();
  }
  RETURN_NOT_OK(sink_->Check(r.kind, lists_.data(), r.num_lists, r.count));
  steps_.push_back(r);
  is_null_ = false;
  return Status::OK();
}

Status ColumnDecoder::AppendFeature(const Resolved& r) {
  return sink_->Append(r.kind, lists_.data() + r.first_list, r.num_lists, r.count);
}

Status ColumnDecoder::Commit() {
  if (reserve_pending_) [[unlikely]] RETURN_NOT_OK(ReserveLikeLastBatch());
  if (is_null_) return root_->AppendNull();
  switch (shape_) {
    case ColumnShape::kScalar:
      return AppendFeature(steps_[0]);
    case ColumnShape::kList:
      RETURN_NOT_OK(outer_->Append());
      return AppendFeature(steps_[0]);
    case ColumnShape::kListOfLists:
      RETURN_NOT_OK(outer_->Append());
      for (const Resolved& r : steps_) {
        if (r.kind == FeatureKind::kNone) {
          RETURN_NOT_OK(inner_->AppendNull());
        } else {
          RETURN_NOT_OK(inner_->Append());
          RETURN_NOT_OK(AppendFeature(r));
        }
      }
      return Status::OK();
    case ColumnShape::kNull:
      break;
  }
  return root_->AppendNull();
}

}  // namespace recflow::example
