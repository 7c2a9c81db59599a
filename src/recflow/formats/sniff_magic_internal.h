// The magic numbers of format-independent sniffing: codecs and the formats recflow does not read (private to formats/sniff).
#pragma once

#include <span>
#include <string>

#include "recflow/formats/content_sniffer.h"

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

/// The check of the magic numbers of formats recflow does not read (Parquet, ORC, TIFF, PNG, ...):
/// a claim of that content, which CheckReadable refuses unless a registered format reads it.
const ContentSniffer& ForeignMagicSniffer();

}  // namespace recflow::formats::internal
