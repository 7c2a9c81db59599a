// Validation and merge resolution of tf.train.Feature / FeatureList messages on the wire.
#include "recflow/formats/example/message_internal.h"

#include "recflow/columnar/utf8.h"

namespace recflow::example::msg {

Status ScanList(FeatureKind kind, Span list, int depth, int64_t* count) {
  int64_t n = 0;
  wire::Reader r(list);
  while (!r.done()) {
    uint32_t tag;
    if (!r.NextTag(&tag)) return Status::DataError("malformed " + std::string(FeatureKindName(kind)) + ": bad tag");
    Span s;
    if (tag == kListPacked) {
      if (!r.ReadLengthDelimited(&s)) {
        return Status::DataError("malformed " + std::string(FeatureKindName(kind)) + ": truncated value");
      }
      if (kind == FeatureKind::kBytesList) {
        n += 1;
      } else if (kind == FeatureKind::kFloatList) {
        if (s.size() % 4 != 0) return Status::DataError("malformed float_list: packed size not a multiple of 4");
        n += s.size() / 4;
      } else {
        const int64_t k = wire::CountPackedVarints(s);
        if (k < 0) return Status::DataError("malformed int64_list: bad packed varint");
        n += k;
      }
    } else if (kind == FeatureKind::kFloatList && tag == kFloatUnpacked) {
      uint32_t v;
      if (!r.ReadFixed32(&v)) return Status::DataError("malformed float_list: truncated float");
      n += 1;
    } else if (kind == FeatureKind::kInt64List && tag == kInt64Unpacked) {
      uint64_t v;
      if (!r.ReadVarint(&v)) return Status::DataError("malformed int64_list: bad varint");
      n += 1;
    } else if (!r.Skip(tag, depth)) {
      return Status::DataError("malformed " + std::string(FeatureKindName(kind)) + ": bad unknown field");
    }
  }
  *count = n;
  return Status::OK();
}

namespace {

// Calls fn(kind, list) for each oneof member of a Feature message, validating unknown fields.
template <typename Fn>
Status ForEachMember(Span feature, int depth, Fn&& fn) {
  wire::Reader r(feature);
  while (!r.done()) {
    uint32_t tag;
    if (!r.NextTag(&tag)) return Status::DataError("malformed Feature: bad tag");
    const uint32_t number = tag >> 3;
    if ((tag & 7) == kLengthDelimited && number >= 1 && number <= 3) {
      Span s;
      if (!r.ReadLengthDelimited(&s)) return Status::DataError("malformed Feature: truncated list");
      RETURN_NOT_OK(fn(static_cast<FeatureKind>(number), s));
    } else if (!r.Skip(tag, depth)) {
      return Status::DataError("malformed Feature: bad unknown field");
    }
  }
  return Status::OK();
}

}  // namespace

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
