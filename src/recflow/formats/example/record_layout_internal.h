// RecordLayout: the feature layout (keys in order, one list of one kind each) a tf.Example shares with records before it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "recflow/formats/example/feature_kind.h"
#include "recflow/formats/example/message_internal.h"
#include "recflow/formats/example/record_frame_internal.h"
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example {

/// The layout of a tf.Example record whose map entries are all plain: a key naming a column that
/// takes one list per row, then one Feature holding one oneof member, and nothing else in the
/// entry, the map or the record. The records of a dataset mostly share their predecessor's
/// layout: Match() checks that with one walk of the framing (tags and lengths read, keys
/// compared, no lookup) and hands out each entry's list message, which the caller validates as it
/// appends the values. Any other record (another key, kind or number of entries, a repeated,
/// unknown or reordered field) does not match and takes the full walk. A layout that matched a
/// record also keeps that record's frame (RecordFrame, LearnFrame): a record framed byte for
/// byte like it (Framed) needs no walk at all.
class RecordLayout {
 public:
  /// One map entry of the layout.
  struct Entry {
    int column = 0;        ///< the column's index in the schema
    std::string key;       ///< the column's name
    FeatureKind kind = FeatureKind::kNone;
    /// The entry's bytes before its Feature's length: the key field and the value field's tag.
    std::string frame;
  };

  /// Learns the layout of `record`, a tf.Example decoded without error (and no frame yet).
  /// column_of(key, position) -> int gives the column an entry's key names when it takes one list
  /// per row (-1 otherwise); `columns` is the schema's width. False, and no layout, when the
  /// record is not plain or names a column twice.
  template <typename ColumnOf>
  bool Learn(wire::Span record, int columns, ColumnOf&& column_of) {
    entries_.clear();
    frame_.Clear();
    seen_.assign(static_cast<size_t>(columns), 0);
    valid_ = ForEachPlainEntry(record, [&](wire::Span key, FeatureKind kind) {
      const int column = column_of(key.view(), entries_.size());
      if (column < 0 || seen_[static_cast<size_t>(column)]++ != 0) return false;
      std::string frame(static_cast<size_t>(wire::LengthDelimitedSize(key.size())) + 1, '\0');
      auto* p = reinterpret_cast<uint8_t*>(frame.data());
      p = wire::WriteLengthHeader(p, msg::kEntryKey, static_cast<uint64_t>(key.size()));
      std::memcpy(p, key.begin, static_cast<size_t>(key.size()));
      p[key.size()] = msg::kEntryValue;
      entries_.push_back({column, std::string(key.view()), kind, std::move(frame)});
      return true;
    });
    if (!valid_) entries_.clear();
    return valid_;
  }
  /// Learns the frame of `record`, which matched the layout with the list messages `lists`
  /// (as Match handed them out). Records seldom share their layout's first record's lengths
  /// (a layout taught by a record of randomly ordered entries is rarely matched again), so the
  /// frame waits for a second record of the layout.
  void LearnFrame(const wire::Span& record, const std::vector<wire::Span>& lists) { frame_.Learn(record, lists); }
  /// True when `record` has the learned frame: then each entry's list (or its run) lies in the
  /// record where frame().holes() says, and has the entry's kind.
  bool Framed(const wire::Span& record) const { return frame_.Matches(record); }
  /// True when `record` has the learned layout; then (*lists)[i] is entry i's list message,
  /// not validated yet. Each entry is checked against its frame (key field and value tag, in one
  /// compare) and the lengths that nest its Feature and list in it.
  bool Match(const wire::Span& record, std::vector<wire::Span>* lists) const {
    if (!valid_) return false;
    lists->resize(entries_.size());
    wire::Reader r(record);
    uint32_t tag;
    wire::Span map;
    if (!r.NextTag(&tag) || tag != msg::kExampleFeatures || !r.ReadLengthDelimited(&map) || !r.done()) return false;
    wire::Reader m(map);
    for (size_t i = 0; i < entries_.size(); ++i) {
      const Entry& expected = entries_[i];
      const size_t frame = expected.frame.size();
      wire::Span entry, feature;
      if (!m.NextTag(&tag) || tag != msg::kMapEntry || !m.ReadLengthDelimited(&entry)) return false;
      if (static_cast<size_t>(entry.size()) <= frame || std::memcmp(entry.begin, expected.frame.data(), frame) != 0) {
        return false;
      }
      wire::Reader e({entry.begin + frame, entry.end});
      if (!e.ReadLengthDelimited(&feature) || !e.done()) return false;
      wire::Reader f(feature);
      if (!f.NextTag(&tag) || tag != msg::FeatureKindTag(expected.kind) || !f.ReadLengthDelimited(&(*lists)[i]) ||
          !f.done()) {
        return false;
      }
    }
    return m.done();
  }

  /// The entries in wire order.
  const std::vector<Entry>& entries() const { return entries_; }
  /// The frame of the first record that matched the layout (none learned: frame().learned() is
  /// false); its holes are the entries'.
  const RecordFrame& frame() const { return frame_; }

 private:
  /// Calls fn(key, kind) -> bool for each entry of a plain record; false when the record is not
  /// plain or fn returns false.
  template <typename Fn>
  static bool ForEachPlainEntry(wire::Span record, Fn&& fn) {
    wire::Reader r(record);
    uint32_t tag;
    wire::Span map;
    if (!r.NextTag(&tag) || tag != msg::kExampleFeatures || !r.ReadLengthDelimited(&map) || !r.done()) return false;
    wire::Reader m(map);
    while (!m.done()) {
      wire::Span entry, key, feature, list;
      if (!m.NextTag(&tag) || tag != msg::kMapEntry || !m.ReadLengthDelimited(&entry)) return false;
      wire::Reader e(entry);
      if (!e.NextTag(&tag) || tag != msg::kEntryKey || !e.ReadLengthDelimited(&key)) return false;
      if (!e.NextTag(&tag) || tag != msg::kEntryValue || !e.ReadLengthDelimited(&feature) || !e.done()) return false;
      wire::Reader f(feature);
      if (!f.NextTag(&tag) || (tag & 7) != wire::kLengthDelimited || !f.ReadLengthDelimited(&list) || !f.done()) {
        return false;
      }
      const uint32_t number = tag >> 3;
      if (number < 1 || number > 3) return false;
      if (!fn(key, static_cast<FeatureKind>(number))) return false;
    }
    return true;
  }

  std::vector<Entry> entries_;
  RecordFrame frame_;
  std::vector<uint8_t> seen_;  // Learn's scratch: columns named so far
  bool valid_ = false;
};

}  // namespace recflow::example
