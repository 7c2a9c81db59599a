// Slow paths of the protobuf wire reader (multi-byte varints, tags, lengths; groups).
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example::wire {

bool Reader::ReadTagSlow(uint32_t* tag) {
  // libprotobuf reads at most 5 tag bytes; bits beyond 32 are dropped.
  uint32_t v = 0;
  for (int i = 0; i < 5; ++i) {
    if (p_ + i >= end_) return false;
    const uint32_t b = p_[i];
    v |= (b & 0x7f) << (7 * i);
    if (b < 0x80) {
      p_ += i + 1;
      *tag = v;
      return true;
    }
  }
  return false;
}

bool Reader::ReadVarintSlow(uint64_t* v) {
  uint64_t r = 0;
  for (int i = 0; i < 10; ++i) {
    if (p_ + i >= end_) return false;
    const uint64_t b = p_[i];
    r |= (b & 0x7f) << (7 * i);
    if (b < 0x80) {
      p_ += i + 1;
      *v = r;
      return true;
    }
  }
  return false;
}

bool Reader::ReadLengthSlow(uint32_t* n) {
  // At most 5 bytes; the 5th must be below 8 (a size below 2 GiB), and the value at most
  // kMaxLength.
  uint32_t v = 0;
  for (int i = 0; i < 5; ++i) {
    if (p_ + i >= end_) return false;
    const uint32_t b = p_[i];
    if (i == 4 && b >= 8) return false;
    v |= (b & 0x7f) << (7 * i);
    if (b < 0x80) {
      if (v > kMaxLength) return false;
      p_ += i + 1;
      *n = v;
      return true;
    }
  }
  return false;
}

bool Reader::Skip(uint32_t tag, int depth) {
  if ((tag >> 3) == 0) return false;
  switch (tag & 7) {
    case kVarint: {
      uint64_t v;
      return ReadVarint(&v);
    }
    case kFixed64:
      if (end_ - p_ < 8) return false;
      p_ += 8;
      return true;
    case kLengthDelimited: {
      Span s;
      return ReadLengthDelimited(&s);
    }
    case kStartGroup:
      return SkipGroup(tag >> 3, depth + 1);
    case kFixed32:
      if (end_ - p_ < 4) return false;
      p_ += 4;
      return true;
    default:  // end group outside a group, 6, 7
      return false;
  }
}

bool Reader::SkipGroup(uint32_t number, int depth) {
  if (depth > kMaxDepth) return false;
  for (;;) {
    uint32_t tag;
    if (p_ >= end_) return false;  // the group never ends
    if (*p_ < 0x80) {
      tag = *p_++;
    } else if (!ReadTagSlow(&tag)) {
      return false;
    }
    if ((tag & 7) == kEndGroup) return (tag >> 3) == number;
    if (tag == 0 || !Skip(tag, depth)) return false;
  }
}

int64_t CountLongPackedVarints(Span packed) {
  int64_t count = 0;
  int run = 0;
  for (const uint8_t* p = packed.begin; p < packed.end; ++p) {
    if (*p & 0x80) {
      if (++run >= 10) return -1;
    } else {
      ++count;
      run = 0;
    }
  }
  return run == 0 ? count : -1;
}

}  // namespace recflow::example::wire
