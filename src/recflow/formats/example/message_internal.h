// The tf.Example / tf.SequenceExample message structure on the wire: tags, validation, map scans and value iteration (see docs/formats/example.md).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "recflow/core/status.h"
#include "recflow/formats/example/feature_kind.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example::msg {

using wire::kFixed32;
using wire::kLengthDelimited;
using wire::kVarint;
using wire::MakeTag;
using wire::Span;

// Tags of the messages in tensorflow/core/example/{example,feature}.proto.
inline constexpr uint32_t kExampleFeatures = MakeTag(1, kLengthDelimited);   ///< Example.features
inline constexpr uint32_t kSeqContext = MakeTag(1, kLengthDelimited);        ///< SequenceExample.context
inline constexpr uint32_t kSeqFeatureLists = MakeTag(2, kLengthDelimited);   ///< SequenceExample.feature_lists
inline constexpr uint32_t kMapEntry = MakeTag(1, kLengthDelimited);          ///< Features.feature / FeatureLists.feature_list
inline constexpr uint32_t kEntryKey = MakeTag(1, kLengthDelimited);          ///< map entry key (string)
inline constexpr uint32_t kEntryValue = MakeTag(2, kLengthDelimited);        ///< map entry value (message)
inline constexpr uint32_t kFeatureListFeature = MakeTag(1, kLengthDelimited);  ///< FeatureList.feature
inline constexpr uint32_t kListPacked = MakeTag(1, kLengthDelimited);        ///< packed values / one bytes value
inline constexpr uint32_t kFloatUnpacked = MakeTag(1, kFixed32);             ///< FloatList.value, one float
inline constexpr uint32_t kInt64Unpacked = MakeTag(1, kVarint);              ///< Int64List.value, one varint

/// Tag of the Feature oneof member holding `kind` (kind must not be kNone).
constexpr uint32_t FeatureKindTag(FeatureKind kind) { return MakeTag(static_cast<uint32_t>(kind), kLengthDelimited); }

// Nesting depths (the record is 0), for libprotobuf's recursion limit on groups.
inline constexpr int kDepthMap = 1;
inline constexpr int kDepthEntry = 2;
inline constexpr int kDepthContextFeature = 3;
inline constexpr int kDepthFeatureList = 3;
inline constexpr int kDepthStepFeature = 4;

/// Validates a BytesList / FloatList / Int64List message at `depth` and counts its values.
Status ScanList(FeatureKind kind, Span list, int depth, int64_t* count);

/// Validates a Feature message (every list in it) at `depth`.
Status ValidateFeature(Span feature, int depth);

/// Validates a FeatureList message (every Feature in it) at `depth`.
Status ValidateFeatureList(Span feature_list, int depth);

/// The Feature that the merge of `n` serialized Feature messages gives, as libprotobuf merges
/// them: the oneof member seen last wins; the same member seen again merges (its lists
/// concatenate). Appends the winning list messages to *lists (not cleared first: the
/// caller passes an offset) and sets *kind and *count. Every list seen is validated.
Status ResolveFeature(const Span* features, size_t n, int depth, FeatureKind* kind, std::vector<Span>* lists,
                      size_t first_list, int64_t* count);

/// Checks a map key (proto3 strings must be valid UTF-8).
Status CheckKey(Span key);

/// Calls fn(key, values) for each entry of a Features or FeatureLists message `map` in wire
/// order; `values` (scratch, reused) holds the entry's value messages in order (several when
/// the value field repeats: they merge). A missing key is "". Values are not validated here.
template <typename Fn>
Status ForEachMapEntry(Span map, std::vector<Span>* values, Fn&& fn) {
  wire::Reader r(map);
  while (!r.done()) {
    uint32_t tag;
    if (!r.NextTag(&tag)) return Status::DataError("malformed map of features: bad tag");
    if (tag != kMapEntry) {
      if (!r.Skip(tag, kDepthMap)) return Status::DataError("malformed map of features: bad unknown field");
      continue;
    }
    Span entry;
    if (!r.ReadLengthDelimited(&entry)) return Status::DataError("malformed map of features: truncated entry");
    Span key{entry.begin, entry.begin};
    values->clear();
    wire::Reader e(entry);
    while (!e.done()) {
      uint32_t etag;
      if (!e.NextTag(&etag)) return Status::DataError("malformed map entry: bad tag");
      Span s;
      if (etag == kEntryKey) {
        if (!e.ReadLengthDelimited(&key)) return Status::DataError("malformed map entry: truncated key");
        RETURN_NOT_OK(CheckKey(key));  // every occurrence, as libprotobuf validates each read
      } else if (etag == kEntryValue) {
        if (!e.ReadLengthDelimited(&s)) return Status::DataError("malformed map entry: truncated value");
        values->push_back(s);
      } else if (!e.Skip(etag, kDepthEntry)) {
        return Status::DataError("malformed map entry: bad unknown field");
      }
    }
    RETURN_NOT_OK(fn(key, static_cast<const std::vector<Span>&>(*values)));
  }
  return Status::OK();
}

/// Calls fn(is_feature_lists, map) for each Features (context) / FeatureLists message of a
/// record of type kExample or kSequenceExample, in wire order (repeats merge: the caller sees
/// all their entries in order, later keys replacing earlier ones).
template <typename Fn>
Status ForEachMap(RecordType type, Span record, Fn&& fn) {
  wire::Reader r(record);
  while (!r.done()) {
    uint32_t tag;
    if (!r.NextTag(&tag)) return Status::DataError("malformed record: bad tag");
    Span s;
    if (tag == kExampleFeatures) {  // == kSeqContext
      if (!r.ReadLengthDelimited(&s)) return Status::DataError("malformed record: truncated features");
      RETURN_NOT_OK(fn(false, s));
    } else if (type == RecordType::kSequenceExample && tag == kSeqFeatureLists) {
      if (!r.ReadLengthDelimited(&s)) return Status::DataError("malformed record: truncated feature_lists");
      RETURN_NOT_OK(fn(true, s));
    } else if (!r.Skip(tag, 0)) {
      return Status::DataError("malformed record: bad unknown field");
    }
  }
  return Status::OK();
}

/// Calls fn(feature) for each Feature (step) of the merge of `n` FeatureList messages, in
/// order (the repeated field concatenates on merge). Unknown fields are validated.
template <typename Fn>
Status ForEachStep(const Span* feature_lists, size_t n, int depth, Fn&& fn) {
  for (size_t i = 0; i < n; ++i) {
    wire::Reader r(feature_lists[i]);
    while (!r.done()) {
      uint32_t tag;
      if (!r.NextTag(&tag)) return Status::DataError("malformed FeatureList: bad tag");
      if (tag == kFeatureListFeature) {
        Span f;
        if (!r.ReadLengthDelimited(&f)) return Status::DataError("malformed FeatureList: truncated Feature");
        RETURN_NOT_OK(fn(f));
      } else if (!r.Skip(tag, depth)) {
        return Status::DataError("malformed FeatureList: bad unknown field");
      }
    }
  }
  return Status::OK();
}

/// Calls fn(int64_t) for each value of validated Int64List messages.
template <typename Fn>
void ForEachInt64(const Span* lists, size_t n, Fn&& fn) {
  for (size_t i = 0; i < n; ++i) {
    wire::Reader r(lists[i]);
    while (!r.done()) {
      uint32_t tag;
      (void)r.NextTag(&tag);
      if (tag == kListPacked) {
        Span s;
        (void)r.ReadLengthDelimited(&s);
        for (const uint8_t* p = s.begin; p < s.end;) fn(static_cast<int64_t>(wire::DecodeVarintUnchecked(p)));
      } else if (tag == kInt64Unpacked) {
        uint64_t v;
        (void)r.ReadVarint(&v);
        fn(static_cast<int64_t>(v));
      } else {
        (void)r.Skip(tag, 0);
      }
    }
  }
}

/// Calls fn(const uint8_t* bytes, int64_t count) for each run of little-endian floats of
/// validated FloatList messages (a packed run, or one unpacked value).
template <typename Fn>
void ForEachFloatRun(const Span* lists, size_t n, Fn&& fn) {
  for (size_t i = 0; i < n; ++i) {
    wire::Reader r(lists[i]);
    while (!r.done()) {
      uint32_t tag;
      (void)r.NextTag(&tag);
      if (tag == kListPacked) {
        Span s;
        (void)r.ReadLengthDelimited(&s);
        fn(s.begin, s.size() / 4);
      } else if (tag == kFloatUnpacked) {
        fn(r.position(), int64_t{1});
        uint32_t v;
        (void)r.ReadFixed32(&v);
      } else {
        (void)r.Skip(tag, 0);
      }
    }
  }
}

/// Calls fn(float) for each value of validated FloatList messages.
template <typename Fn>
void ForEachFloat(const Span* lists, size_t n, Fn&& fn) {
  ForEachFloatRun(lists, n, [&](const uint8_t* p, int64_t count) {
    for (int64_t k = 0; k < count; ++k) {
      float f;
      std::memcpy(&f, p + 4 * k, 4);
      fn(f);
    }
  });
}

/// Calls fn(Span) for each value of validated BytesList messages.
template <typename Fn>
void ForEachBytes(const Span* lists, size_t n, Fn&& fn) {
  for (size_t i = 0; i < n; ++i) {
    wire::Reader r(lists[i]);
    while (!r.done()) {
      uint32_t tag;
      (void)r.NextTag(&tag);
      if (tag == kListPacked) {
        Span s;
        (void)r.ReadLengthDelimited(&s);
        fn(s);
      } else {
        (void)r.Skip(tag, 0);
      }
    }
  }
}

}  // namespace recflow::example::msg
