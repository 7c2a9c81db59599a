// The magic numbers of format sniffing: codecs and file formats, and the text test (private to formats/sniff).
#pragma once

#include <span>
#include <string>

#include "recflow/formats/sniff.h"

namespace recflow::formats::internal {

/// A magic number that matched: what it means and how to name it in evidence.
template <typename Kind>
struct MagicMatch {
  Kind kind;
  std::string evidence;
};

/// The codec whose magic the head starts with (gzip, zstd, bzip2, xz, lz4 frame, snappy
/// framed), or kNone. Zlib has no magic, only a two-byte header check: see LooksLikeZlib.
MagicMatch<SniffedCodec> MatchCodecMagic(std::span<const uint8_t> head);

/// The format whose magic the head starts with: Avro and the formats recflow does not read;
/// kUnknown otherwise. TFRecord framing and Arrow IPC files and streams are checked elsewhere.
MagicMatch<ContentKind> MatchContentMagic(std::span<const uint8_t> head);

/// CSV or JSON Lines when the head is text (UTF-8 without NUL bytes; the last character may be
/// cut off): JSON Lines when its first non-blank character is '{', else CSV; kUnknown for
/// binary bytes.
ContentKind GuessText(std::span<const uint8_t> head);

}  // namespace recflow::formats::internal
