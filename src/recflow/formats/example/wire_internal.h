// Protobuf wire primitives: a bounds-checked reader with libprotobuf's exact limits, and a varint writer.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace recflow::example::wire {

static_assert(std::endian::native == std::endian::little, "fixed32/fixed64 are read with memcpy");

/// Protobuf wire types (the low 3 bits of a tag).
enum WireType : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

/// libprotobuf's default recursion limit: nested messages and groups deeper than this fail.
inline constexpr int kMaxDepth = 100;
/// libprotobuf rejects length prefixes above INT_MAX - 16 (its "slop bytes").
inline constexpr uint32_t kMaxLength = 0x7fffffffu - 16;

/// Tag of field `number` with wire type `type`.
constexpr uint32_t MakeTag(uint32_t number, WireType type) { return (number << 3) | type; }

/// A run of bytes [begin, end) inside a record.
struct Span {
  const uint8_t* begin = nullptr;
  const uint8_t* end = nullptr;
  int64_t size() const { return end - begin; }
  std::string_view view() const { return {reinterpret_cast<const char*>(begin), static_cast<size_t>(end - begin)}; }
};

/// A Span over a string_view's bytes.
inline Span SpanOf(std::string_view s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  return {p, p + s.size()};
}

/// Reads one message's fields front to back. Every read is bounds-checked and returns false on
/// malformed input, with the limits libprotobuf applies (varints ≤ 10 bytes, tags ≤ 5 bytes,
/// length prefixes ≤ 5 bytes and ≤ kMaxLength).
class Reader {
 public:
  explicit Reader(Span s) : p_(s.begin), end_(s.end) {}

  bool done() const { return p_ >= end_; }
  const uint8_t* position() const { return p_; }

  /// Reads the next tag of a message. False when it is malformed, 0, or an end-group tag
  /// (libprotobuf ends the message there, which fails a length-delimited or top-level parse).
  bool NextTag(uint32_t* tag) {
    if (p_ < end_ && *p_ < 0x80) [[likely]] {
      *tag = *p_++;
    } else if (!ReadTagSlow(tag)) {
      return false;
    }
    return *tag != 0 && (*tag & 7) != kEndGroup;
  }

  /// Reads a varint (modulo 2^64, as libprotobuf does with a 10th byte above 1).
  bool ReadVarint(uint64_t* v) {
    if (p_ < end_ && *p_ < 0x80) [[likely]] {
      *v = *p_++;
      return true;
    }
    return ReadVarintSlow(v);
  }

  /// Reads a length prefix and the bytes it covers.
  bool ReadLengthDelimited(Span* out) {
    uint32_t n;
    if (p_ < end_ && *p_ < 0x80) [[likely]] {
      n = *p_++;
    } else if (end_ - p_ >= 2 && p_[1] < 0x80) {  // 128..16383, inline: lists of images and embeddings
      n = (p_[0] & 0x7fu) | (uint32_t{p_[1]} << 7);
      p_ += 2;
    } else if (!ReadLengthSlow(&n)) {
      return false;
    }
    if (n > static_cast<uint64_t>(end_ - p_)) return false;
    *out = {p_, p_ + n};
    p_ += n;
    return true;
  }

  /// Reads 4 little-endian bytes.
  bool ReadFixed32(uint32_t* v) {
    if (end_ - p_ < 4) return false;
    std::memcpy(v, p_, 4);
    p_ += 4;
    return true;
  }

  /// Skips the value of an unknown field whose tag was just read, in a message nested `depth`
  /// levels below the record (the record is depth 0). Start groups are parsed and skipped up to
  /// the matching end group, as libprotobuf does; field number 0 and wire types 4, 6, 7 fail.
  bool Skip(uint32_t tag, int depth);

 private:
  bool ReadTagSlow(uint32_t* tag);
  bool ReadVarintSlow(uint64_t* v);
  bool ReadLengthSlow(uint32_t* n);
  bool SkipGroup(uint32_t number, int depth);

  const uint8_t* p_;
  const uint8_t* end_;
};

/// CountPackedVarints of a run longer than 10 bytes.
int64_t CountLongPackedVarints(Span packed);

/// Number of values in a packed varint run, or -1 when a varint is longer than 10 bytes or
/// the run ends inside a varint.
inline int64_t CountPackedVarints(Span packed) {
  if (packed.size() > 10) return CountLongPackedVarints(packed);
  // Up to 10 bytes hold no varint longer than 10 bytes: valid when the last byte ends one.
  if (packed.size() > 0 && packed.end[-1] >= 0x80) return -1;
  int64_t count = 0;
  for (const uint8_t* p = packed.begin; p < packed.end; ++p) count += *p < 0x80;
  return count;
}

/// Decodes one varint of already validated bytes.
inline uint64_t DecodeVarintUnchecked(const uint8_t*& p) {
  uint64_t b = *p++;
  if (b < 0x80) [[likely]] return b;
  uint64_t v = b & 0x7f;
  for (int shift = 7;; shift += 7) {
    b = *p++;
    v |= (b & 0x7f) << shift;
    if (b < 0x80) return v;
  }
}

/// Bytes of the varint encoding of `v` (1..10).
constexpr int VarintSize(uint64_t v) { return (std::bit_width(v | 1) + 6) / 7; }

/// Writes `v` as a varint at `p`; returns the end.
inline uint8_t* WriteVarint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

/// Writes a one-byte tag (field numbers 1..15) and a length prefix; returns the end.
inline uint8_t* WriteLengthHeader(uint8_t* p, uint8_t tag, uint64_t length) {
  *p++ = tag;
  return WriteVarint(p, length);
}

/// Size of a length-delimited field with a one-byte tag and `length` payload bytes.
constexpr int64_t LengthDelimitedSize(int64_t length) {
  return 1 + VarintSize(static_cast<uint64_t>(length)) + length;
}

}  // namespace recflow::example::wire
