// Validation and merge resolution of tf.train.Feature / FeatureList messages on the wire.
#include "recflow/formats/example/message_internal.h"

#include "recflow/columnar/utf8.h"

namespace recflow::example::msg {

Status MalformedList(FeatureKind kind, const char* what) {
  return Status::DataError("malformed " + std::string(FeatureKindName(kind)) + ": " + what);
}

Status ScanList(FeatureKind kind, Span list, int depth, int64_t* count) {
  int64_t n = 0;
  RETURN_NOT_OK(ForEachRun(kind, list, depth, [&n](Span, int64_t k) {
    n += k;
    return Status::OK();
  }));
  *count = n;
  return Status::OK();
}

Status ValidateFeature(Span feature, int depth) {
  return ForEachMember(feature, depth, [depth](FeatureKind kind, Span list) {
    int64_t n;
    return ScanList(kind, list, depth + 1, &n);
  });
}

Status ValidateFeatureList(Span feature_list, int depth) {
  return ForEachStep(&feature_list, 1, depth, [depth](Span f) { return ValidateFeature(f, depth + 1); });
}

Status ResolveFeature(const Span* features, size_t n, int depth, FeatureKind* kind, std::vector<Span>* lists,
                      size_t first_list, int64_t* count) {
  FeatureKind k = FeatureKind::kNone;
  int64_t total = 0;
  for (size_t i = 0; i < n; ++i) {
    RETURN_NOT_OK(ForEachMember(features[i], depth, [&](FeatureKind member, Span list) {
      int64_t c;
      RETURN_NOT_OK(ScanList(member, list, depth + 1, &c));
      if (member != k) {  // a oneof switch clears the previous member
        k = member;
        total = 0;
        lists->resize(first_list);
      }
      lists->push_back(list);
      total += c;
      return Status::OK();
    }));
  }
  *kind = k;
  *count = total;
  return Status::OK();
}

Status CheckKey(Span key) {
  if (!IsValidUtf8(key.begin, key.size())) return Status::DataError("feature name is not valid UTF-8");
  return Status::OK();
}

}  // namespace recflow::example::msg
