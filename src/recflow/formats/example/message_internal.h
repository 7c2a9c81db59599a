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

/// The DataError of a malformed list message of `kind` ("malformed int64_list: <what>").
Status MalformedList(FeatureKind kind, const char* what);

/// Validates a BytesList / FloatList / Int64List message at `depth` and calls
/// fn(Span run, int64_t count) -> Status for each run of its values in wire order: `count`
/// varints (Int64List, packed or one unpacked value; every varint checked), `count` little-endian
/// floats (FloatList), or one bytes value (BytesList, count 1). Stops at fn's first error.
template <typename Fn>
Status ForEachRun(FeatureKind kind, Span list, int depth, Fn&& fn) {
  wire::Reader r(list);
  while (!r.done()) {
    uint32_t tag;
    if (!r.NextTag(&tag)) return MalformedList(kind, "bad tag");
    const uint8_t* start = r.position();
    if (tag == kListPacked) {
      Span s;
      if (!r.ReadLengthDelimited(&s)) return MalformedList(kind, "truncated value");
      int64_t n = 1;
      if (kind == FeatureKind::kFloatList) {
        if (s.size() % 4 != 0) return MalformedList(kind, "packed size not a multiple of 4");
        n = s.size() / 4;
      } else if (kind == FeatureKind::kInt64List) {
        n = wire::CountPackedVarints(s);
        if (n < 0) return MalformedList(kind, "bad packed varint");
      }
      RETURN_NOT_OK(fn(s, n));
    } else if (kind == FeatureKind::kFloatList && tag == kFloatUnpacked) {
      uint32_t v;
      if (!r.ReadFixed32(&v)) return MalformedList(kind, "truncated float");
      RETURN_NOT_OK(fn(Span{start, r.position()}, int64_t{1}));
    } else if (kind == FeatureKind::kInt64List && tag == kInt64Unpacked) {
      uint64_t v;
      if (!r.ReadVarint(&v)) return MalformedList(kind, "bad varint");
      RETURN_NOT_OK(fn(Span{start, r.position()}, int64_t{1}));
    } else if (!r.Skip(tag, depth)) {
      return MalformedList(kind, "bad unknown field");
    }
  }
  return Status::OK();
}

/// Whether a list message is one packed field with a one-byte length (a short packed run, or one
/// short bytes value) and nothing else; its payload goes to *run.
inline bool OnePackedField(const Span& list, Span* run) {
  if (list.size() < 2 || list.begin[0] != kListPacked || list.begin[1] >= 0x80 || list.begin[1] != list.size() - 2) {
    return false;
  }
  *run = {list.begin + 2, list.end};
  return true;
}

/// Validates a BytesList / FloatList / Int64List message at `depth` and counts its values.
Status ScanList(FeatureKind kind, Span list, int depth, int64_t* count);

/// Calls fn(kind, list) -> Status for each oneof member of a Feature message at `depth`, in
/// wire order; unknown fields are validated, the lists are not.
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
/// the value field repeats: they merge). A missing key is "". Values are not validated here,
/// nor is the key handed to fn (the last of the entry): fn must CheckKey() it unless it is
/// known to be valid UTF-8 (equal to a column name). Earlier keys of the entry are checked.
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
    bool has_key = false;
    values->clear();
    wire::Reader e(entry);
    while (!e.done()) {
      uint32_t etag;
      if (!e.NextTag(&etag)) return Status::DataError("malformed map entry: bad tag");
      Span s;
      if (etag == kEntryKey) {
        if (has_key) RETURN_NOT_OK(CheckKey(key));  // every occurrence, as libprotobuf validates each read
        if (!e.ReadLengthDelimited(&key)) return Status::DataError("malformed map entry: truncated key");
        has_key = true;
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
