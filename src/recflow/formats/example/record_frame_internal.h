// RecordFrame: the bytes of a learned tf.Example around its values, so that a record framed byte for byte like it is recognised by a few compares.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "recflow/formats/example/message_internal.h"
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example {

/// The framing of a plain record (see RecordLayout): every byte of it but its values. Each entry's
/// list message is a hole in the frame: when the list is one packed field (a packed run of floats
/// or varints, or one bytes value) only that field's payload, the run, is the hole and the field's
/// tag and length are frame; otherwise the whole list is. A record of the same size whose frame
/// bytes are all equal has the same structure — keys, order, kinds, tags and every length — since
/// a parser reads only frame bytes to find it; only its values may differ, and each list or run
/// lies at the same offset. The caller still validates each hole as values of its kind (a run of
/// varints may hold another count, or a malformed one).
class RecordFrame {
 public:
  /// Where one entry's values lie in a record of this frame.
  struct Hole {
    int64_t list_offset = 0;  ///< the list message
    int64_t list_size = 0;
    int64_t run_offset = 0;  ///< the packed field's payload, when `run`
    int64_t run_size = 0;
    bool run = false;  ///< whether the list is one packed field

    /// The entry's list message in `record`.
    wire::Span List(const wire::Span& record) const {
      return {record.begin + list_offset, record.begin + list_offset + list_size};
    }
    /// The run of the list's one packed field in `record` (only when `run`).
    wire::Span Run(const wire::Span& record) const {
      return {record.begin + run_offset, record.begin + run_offset + run_size};
    }
  };

  /// Learns the frame of `record`, whose entries' list messages are `lists` (spans into it, in
  /// wire order).
  void Learn(const wire::Span& record, const std::vector<wire::Span>& lists) {
    size_ = record.size();
    holes_.clear();
    segments_.clear();
    bytes_.clear();
    const uint8_t* at = record.begin;
    for (const wire::Span& list : lists) {
      Hole hole{list.begin - record.begin, list.size(), 0, 0, false};
      wire::Span hollow = list;
      wire::Reader r(list);
      uint32_t tag;
      wire::Span run;
      if (r.NextTag(&tag) && tag == msg::kListPacked && r.ReadLengthDelimited(&run) && r.done()) {
        hole.run = true;
        hole.run_offset = run.begin - record.begin;
        hole.run_size = run.size();
        hollow = run;
      }
      AddSegment(record, at, hollow.begin);
      at = hollow.end;
      holes_.push_back(hole);
    }
    AddSegment(record, at, record.end);
  }

  /// Forgets the frame: nothing matches.
  void Clear() {
    size_ = -1;
    holes_.clear();
    segments_.clear();
    bytes_.clear();
  }

  /// Whether a frame was learned (since the last Clear).
  bool learned() const { return size_ >= 0; }

  /// Whether `record` has the learned frame: its size and every frame byte equal (false when
  /// none was learned).
  bool Matches(const wire::Span& record) const {
    if (record.size() != size_) return false;
    const auto* expected = reinterpret_cast<const uint8_t*>(bytes_.data());
    for (const Segment& s : segments_) {
      if (!Equal(record.begin + s.offset, expected + s.at, s.size)) return false;
    }
    return true;
  }

  /// The holes, one per entry in wire order.
  const std::vector<Hole>& holes() const { return holes_; }

 private:
  // A stretch of frame bytes: record[offset, offset + size) == bytes_[at, at + size).
  struct Segment {
    int64_t offset;
    int64_t size;
    size_t at;
  };

  // Whether the n bytes at a and b are equal, compared inline in words (the last one overlapping):
  // segments are a few dozen bytes, where a call to memcmp costs more than the compare.
  static bool Equal(const uint8_t* a, const uint8_t* b, int64_t n) {
    if (n >= 8) {
      for (int64_t i = 0; i + 8 < n; i += 8) {
        if (Load<uint64_t>(a + i) != Load<uint64_t>(b + i)) return false;
      }
      return Load<uint64_t>(a + n - 8) == Load<uint64_t>(b + n - 8);
    }
    if (n >= 4) {
      return Load<uint32_t>(a) == Load<uint32_t>(b) && Load<uint32_t>(a + n - 4) == Load<uint32_t>(b + n - 4);
    }
    for (int64_t i = 0; i < n; ++i) {
      if (a[i] != b[i]) return false;
    }
    return true;
  }
  template <typename T>
  static T Load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }

  // Adds the frame bytes [from, to) of `record` (none when empty).
  void AddSegment(const wire::Span& record, const uint8_t* from, const uint8_t* to) {
    if (to == from) return;
    segments_.push_back({from - record.begin, to - from, bytes_.size()});
    bytes_.append(reinterpret_cast<const char*>(from), static_cast<size_t>(to - from));
  }

  int64_t size_ = -1;  // the record's size (-1: nothing learned)
  std::vector<Hole> holes_;
  std::vector<Segment> segments_;
  std::string bytes_;  // the segments' bytes, in order
};

}  // namespace recflow::example
