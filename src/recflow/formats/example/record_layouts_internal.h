// RecordLayouts: the few RecordLayouts a file's records alternate between, each record matched first against the likeliest.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "recflow/formats/example/record_layout_internal.h"
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example {

/// Up to kMaxLayouts learned layouts, so that records alternating between a few layouts (a feature
/// present in every other record, two kinds of record interleaved) each match one instead of
/// relearning at every record. A record is tried first against the layout that followed the last
/// matched layout the last time (or the last one itself), then against the others; a new layout
/// replaces the one matched least recently. After kLostAfter records in a row that matched none
/// (a writer that orders each record's map entries at random), only the first try is made until a
/// record matches again, and the Decoder learns rarely (lost()).
class RecordLayouts {
 public:
  /// How many layouts are kept.
  static constexpr int kMaxLayouts = 4;
  /// Records in a row matching no layout after which the layouts count as lost.
  static constexpr int kLostAfter = 16;

  /// The layout `record` has; nullptr when it has none of the learned layouts. *framed tells
  /// whether the record has the layout's frame too (RecordLayout::Framed: its lists lie where the
  /// frame's holes say); when not, (*lists)[i] is entry i's list message as RecordLayout::Match
  /// hands them out.
  const RecordLayout* Match(const wire::Span& record, std::vector<wire::Span>* lists, bool* framed) {
    if (last_ < 0) return Miss();
    const int next = next_[static_cast<size_t>(last_)];
    const int predicted = next >= 0 ? next : last_;
    if (Fits(predicted, record, lists, framed)) [[likely]] return Use(predicted);
    if (lost()) return Miss();
    for (int i = 0; i < count_; ++i) {
      if (i != predicted && Fits(i, record, lists, framed)) return Use(i);
    }
    return Miss();
  }

  /// Whether the last kLostAfter records or more matched no layout.
  bool lost() const { return misses_ >= kLostAfter; }

  /// Learns the layout of `record` (RecordLayout::Learn's arguments) into a free slot, or over the
  /// layout matched least recently. False, and every learned layout kept, when the record is not
  /// plain.
  template <typename ColumnOf>
  bool Learn(wire::Span record, int columns, ColumnOf&& column_of) {
    if (!spare_.Learn(record, columns, std::forward<ColumnOf>(column_of))) return false;
    int slot = count_;
    if (count_ < kMaxLayouts) {
      ++count_;
    } else {
      slot = 0;
      for (int i = 1; i < kMaxLayouts; ++i) {
        if (used_[static_cast<size_t>(i)] < used_[static_cast<size_t>(slot)]) slot = i;
      }
    }
    std::swap(spare_, layouts_[static_cast<size_t>(slot)]);
    next_[static_cast<size_t>(slot)] = -1;  // what follows the new layout is not known yet
    Note(slot);
    return true;
  }

  /// The number of layouts learned (at most kMaxLayouts).
  int size() const { return count_; }

 private:
  // Whether `record` has layout i: its frame (*framed), or else its entries with their lists. The
  // first record to match a layout teaches it its frame.
  bool Fits(int i, const wire::Span& record, std::vector<wire::Span>* lists, bool* framed) {
    RecordLayout& layout = layouts_[static_cast<size_t>(i)];
    *framed = layout.Framed(record);
    if (*framed) return true;
    if (!layout.Match(record, lists)) return false;
    if (!layout.frame().learned()) layout.LearnFrame(record, *lists);
    return true;
  }
  // Notes layout i as the one after the last one (matched or learned).
  void Note(int i) {
    if (last_ >= 0) next_[static_cast<size_t>(last_)] = i;
    last_ = i;
    used_[static_cast<size_t>(i)] = ++clock_;
  }
  // Notes layout i as matched; returns it.
  const RecordLayout* Use(int i) {
    Note(i);
    misses_ = 0;
    return &layouts_[static_cast<size_t>(i)];
  }
  // Counts a record that matched no layout.
  const RecordLayout* Miss() {
    ++misses_;
    return nullptr;
  }

  std::array<RecordLayout, kMaxLayouts> layouts_;
  std::array<int, kMaxLayouts> next_{};      // the layout matched after each one the last time (-1: none yet)
  std::array<uint64_t, kMaxLayouts> used_{};  // when each was last matched or learned
  RecordLayout spare_;                       // Learn's scratch, so a record that is not plain drops no layout
  int count_ = 0;
  int last_ = -1;  // the layout matched or learned last
  int misses_ = 0;  // records in a row that matched no layout
  uint64_t clock_ = 0;
};

}  // namespace recflow::example
