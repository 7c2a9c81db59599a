// KindSummary: spark-tfrecord's type precedence for one feature.
#include "recflow/formats/example/feature_kind.h"

namespace recflow::example {

std::string_view FeatureKindName(FeatureKind kind) {
  switch (kind) {
    case FeatureKind::kBytesList:
      return "bytes_list";
    case FeatureKind::kFloatList:
      return "float_list";
    case FeatureKind::kInt64List:
      return "int64_list";
    case FeatureKind::kNone:
      break;
  }
  return "none";
}

void KindSummary::Add(FeatureKind kind, int64_t length, bool all_utf8) {
  if (kind == FeatureKind::kNone) return;
  if (length == 0) {
    saw_empty_ = true;
    return;
  }
  ++lists_;
  if (length != 1) non_scalar_ = true;
  kinds_ |= static_cast<uint8_t>(1u << static_cast<unsigned>(kind));
  if (kind == FeatureKind::kBytesList && !all_utf8) bytes_all_utf8_ = false;
}

void KindSummary::Merge(const KindSummary& other) {
  kinds_ |= other.kinds_;
  non_scalar_ = non_scalar_ || other.non_scalar_;
  saw_empty_ = saw_empty_ || other.saw_empty_;
  bytes_all_utf8_ = bytes_all_utf8_ && other.bytes_all_utf8_;
  lists_ += other.lists_;
}

DataTypePtr KindSummary::ValueType() const {
  // int64 < float32 < bytes: the widest kind seen wins. Numbers promoted to bytes are
  // rendered as decimal text, which is valid UTF-8.
  if (saw(FeatureKind::kBytesList)) return bytes_all_utf8_ ? utf8() : binary();
  if (saw(FeatureKind::kFloatList)) return float32();
  if (saw(FeatureKind::kInt64List)) return int64();
  return null();
}

DataTypePtr KindSummary::ColumnType() const {
  DataTypePtr value = ValueType();
  if (value->id() == TypeId::kNull || scalar()) return value;
  return list(std::move(value));
}

}  // namespace recflow::example
