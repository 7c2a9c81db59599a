// PrintableText: escapes control bytes and malformed UTF-8 as \xNN so messages are safe to print.
#include "recflow/core/printable.h"

#include <cstdio>

namespace recflow {

namespace {

// The length of the well-formed UTF-8 sequence starting text[i] (RFC 3629: no overlongs, no
// surrogates, at most U+10FFFF), or 0 when there is none.
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

}  // namespace

std::string PrintableText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto u = static_cast<unsigned char>(text[i]);
    if ((u >= 0x20 && u < 0x7F) || u == '\n' || u == '\t') {
      out += text[i++];
      continue;
    }
    if (const size_t length = u >= 0x80 ? Utf8SequenceLength(text, i) : 0; length > 0) {
      out.append(text.substr(i, length));
      i += length;
      continue;
    }
    char hex[8];
    std::snprintf(hex, sizeof(hex), "\\x%02x", u);
    out += hex;
    ++i;
  }
  return out;
}

}  // namespace recflow
