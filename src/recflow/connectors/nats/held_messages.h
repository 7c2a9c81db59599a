// HeldMessages: the messages a NATS source holds unacknowledged, stream sequence → latest ack subject, kept without an
// allocation per message (one buffer of records in arrival order, an open-addressing table of sequences into it).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace recflow::nats {

/// A set of held messages keyed by stream sequence (never 0), each with the ack subject of its
/// latest delivery. A source holds every message it read until an acknowledgement covers it (a
/// run holds its whole input until it commits), so a message costs no allocation of its own: its
/// sequence and subject are appended to one buffer, the sequence hashed into a table of offsets
/// in it. They are visited in the buffer's order (the order they were held in): a walk through
/// memory, not a cache miss per message as a hashed order over 100 000 messages costs.
class HeldMessages {
 public:
  /// Holds `sequence` with ack subject `reply`; false when it was held already, its subject then
  /// replaced by `reply` (delivered again: acknowledged with its latest subject).
  bool Hold(uint64_t sequence, std::string_view reply);
  /// Whether `sequence` is held.
  bool Contains(uint64_t sequence) const { return Find(sequence) != nullptr; }
  /// How many messages are held.
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

  /// Calls `each(sequence, subject)` for every held message, in the order they were held (one
  /// held again counts where it was held last); `subject` is NUL-terminated and valid until the
  /// set changes.
  template <typename Fn>
  void ForEach(Fn each) const {
    for (size_t at = 0; at < records_.size();) {
      uint64_t sequence;
      std::memcpy(&sequence, records_.data() + at, sizeof sequence);
      const char* subject = records_.data() + at + sizeof sequence;
      at += sizeof sequence + std::strlen(subject) + 1;
      if (sequence != 0) each(sequence, subject);
    }
  }

  /// Moves the messages `take(sequence)` is true for into the set returned; the rest stay.
  template <typename Pred>
  HeldMessages TakeIf(Pred take) {
    HeldMessages taken, kept;
    ForEach([&](uint64_t sequence, const char* subject) { (take(sequence) ? taken : kept).Hold(sequence, subject); });
    *this = std::move(kept);
    return taken;
  }

 private:
  struct Slot {
    uint64_t sequence = 0;  // 0: empty
    uint64_t offset = 0;    // of its record in records_
  };
  const Slot* Find(uint64_t sequence) const;
  // The slot `sequence` hashes to in a table of `mask` + 1 slots (at least 16): runs of 16 sequences share 16 slots in
  // a row, the runs hashed apart. A source holds sequences mostly in order: a miss in the table per 16 messages rather
  // than per message, while a filter subject's every n-th sequence still spreads over the table.
  static size_t Home(uint64_t sequence, size_t mask) {
    return static_cast<size_t>(((((sequence >> 4) * 0x9E3779B97F4A7C15ull) >> 28) << 4 | (sequence & 15)) & mask);
  }
  void Grow();

  std::vector<Slot> slots_;  // open addressing, linear probing; a power of two in size, at most 3/4 full
  size_t count_ = 0;
  // Per message held: its sequence (8 bytes, 0 once replaced by a later record of it), its subject and a NUL.
  std::string records_;
};

}  // namespace recflow::nats
