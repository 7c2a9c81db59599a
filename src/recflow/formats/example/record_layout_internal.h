// RecordLayout: the feature layout (keys in order, one list of one kind each) a tf.Example shares with the record before it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/formats/example/feature_kind.h"
#include "recflow/formats/example/message_internal.h"
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example {

/// The layout of a tf.Example record whose map entries are all plain: a key naming a column that
/// takes one list per row, then one Feature holding one oneof member, and nothing else in the
/// entry, the map or the record. The records of a dataset mostly share their predecessor's
/// layout: Match() checks that with one walk of the framing (tags and lengths read, keys
/// compared, no lookup) and hands out each entry's list message, which the caller validates as it
/// appends the values. Any other record (another key, kind or number of entries, a repeated,
/// unknown or reordered field) does not match and takes the full walk.
class RecordLayout {
 public:
  /// One map entry of the layout.
  struct Entry {
    int column = 0;        ///< the column's index in the schema
    std::string key;       ///< the column's name
    FeatureKind kind = FeatureKind::kNone;
  };

  /// Learns the layout of `record`, a tf.Example decoded without error. column_of(key, position)
  /// -> int gives the column an entry's key names when it takes one list per row (-1 otherwise);
  /// `columns` is the schema's width. False, and no layout, when the record is not plain or names
  /// a column twice.
  template <typename ColumnOf>
  bool Learn(wire::Span record, int columns, ColumnOf&& column_of) {
    entries_.clear();
    seen_.assign(static_cast<size_t>(columns), 0);
    valid_ = ForEachPlainEntry(record, [&](wire::Span key, FeatureKind kind, wire::Span) {
      const int column = column_of(key.view(), entries_.size());
      if (column < 0 || seen_[static_cast<size_t>(column)]++ != 0) return false;
      entries_.push_back({column, std::string(key.view()), kind});
      return true;
    });
    if (!valid_) entries_.clear();
    return valid_;
  }
  /// True when `record` has the learned layout; then (*lists)[i] is entry i's list message,
  /// not validated yet.
  bool Match(wire::Span record, std::vector<wire::Span>* lists) const {
    if (!valid_) return false;
    lists->resize(entries_.size());
    size_t i = 0;
    return ForEachPlainEntry(record,
                             [&](wire::Span key, FeatureKind kind, wire::Span list) {
                               if (i == entries_.size() || kind != entries_[i].kind || key.view() != entries_[i].key) {
                                 return false;
                               }
                               (*lists)[i++] = list;
                               return true;
                             }) &&
           i == entries_.size();
  }

  /// The entries in wire order.
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  /// Calls fn(key, kind, list) -> bool for each entry of a plain record; false when the record is
  /// not plain or fn returns false.
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
      if (!fn(key, static_cast<FeatureKind>(number), list)) return false;
    }
    return true;
  }

  std::vector<Entry> entries_;
  std::vector<uint8_t> seen_;  // Learn's scratch: columns named so far
  bool valid_ = false;
};

}  // namespace recflow::example
