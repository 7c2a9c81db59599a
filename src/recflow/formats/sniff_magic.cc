// Magic number tables for codecs and the formats recflow does not read, and the test for text heads.
#include <array>
#include <optional>
#include <string_view>

#include "recflow/columnar/utf8.h"
#include "recflow/core/compression.h"
#include "recflow/formats/sniff_magic_internal.h"

namespace recflow::formats::internal {

namespace {

/// A magic number at offset 0.
template <typename Kind>
struct Magic {
  std::string_view bytes;
  Kind kind;
  std::string_view shown;  // how the evidence names it
};

bool StartsWith(std::span<const uint8_t> head, std::string_view bytes) {
  return head.size() >= bytes.size() && std::string_view(reinterpret_cast<const char*>(head.data()), bytes.size()) == bytes;
}

using namespace std::string_view_literals;

constexpr std::array kCodecMagic{
    Magic<SniffedCodec>{"\x28\xb5\x2f\xfd"sv, SniffedCodec::kZstd, "28 b5 2f fd"},
    Magic<SniffedCodec>{"\xfd" "7zXZ\x00"sv, SniffedCodec::kXz, "fd 37 7a 58 5a 00"},
    Magic<SniffedCodec>{"\x04\x22\x4d\x18"sv, SniffedCodec::kLz4Frame, "04 22 4d 18"},
    Magic<SniffedCodec>{"\xff\x06\x00\x00sNaPpY"sv, SniffedCodec::kSnappyFramed, "ff 06 00 00 sNaPpY"},
};

constexpr std::array kForeignMagic{
    Magic<ContentKind>{"PAR1"sv, ContentKind::kParquet, "PAR1"},
    Magic<ContentKind>{"ORC"sv, ContentKind::kOrc, "ORC"},
    Magic<ContentKind>{"II*\x00"sv, ContentKind::kTiff, "II*\\0"},
    Magic<ContentKind>{"MM\x00*"sv, ContentKind::kTiff, "MM\\0*"},
    Magic<ContentKind>{"II+\x00"sv, ContentKind::kBigTiff, "II+\\0"},
    Magic<ContentKind>{"MM\x00+"sv, ContentKind::kBigTiff, "MM\\0+"},
    Magic<ContentKind>{"\x89PNG\r\n\x1a\n"sv, ContentKind::kPng, "\\x89PNG"},
    Magic<ContentKind>{"\xff\xd8\xff"sv, ContentKind::kJpeg, "ff d8 ff"},
    Magic<ContentKind>{"GIF87a"sv, ContentKind::kGif, "GIF87a"},
    Magic<ContentKind>{"GIF89a"sv, ContentKind::kGif, "GIF89a"},
    Magic<ContentKind>{"\x89HDF\r\n\x1a\n"sv, ContentKind::kHdf5, "\\x89HDF"},
    Magic<ContentKind>{"\x93NUMPY"sv, ContentKind::kNumpy, "\\x93NUMPY"},
    Magic<ContentKind>{"PK\x03\x04"sv, ContentKind::kZip, "PK 03 04"},
    Magic<ContentKind>{"FEA1"sv, ContentKind::kFeatherV1, "FEA1"},
    Magic<ContentKind>{"%PDF-"sv, ContentKind::kPdf, "%PDF-"},
    Magic<ContentKind>{"SQLite format 3\x00"sv, ContentKind::kSqlite, "SQLite format 3"},
    Magic<ContentKind>{"7z\xbc\xaf\x27\x1c"sv, ContentKind::kSevenZip, "7z bc af 27 1c"},
};

template <typename Kind, size_t N>
MagicMatch<Kind> Match(const std::array<Magic<Kind>, N>& table, std::span<const uint8_t> head, Kind none) {
  for (const Magic<Kind>& magic : table) {
    if (StartsWith(head, magic.bytes)) return {magic.kind, "magic " + std::string(magic.shown)};
  }
  return {none, ""};
}

/// bzip2: "BZh", the block size digit, then a block's or the end's 48-bit magic.
bool LooksLikeBzip2(std::span<const uint8_t> head) {
  if (head.size() < 10 || !StartsWith(head, "BZh") || head[3] < '1' || head[3] > '9') return false;
  const auto rest = head.subspan(4);
  return StartsWith(rest, "\x31\x41\x59\x26\x53\x59"sv) || StartsWith(rest, "\x17\x72\x45\x38\x50\x90"sv);
}

}  // namespace

MagicMatch<SniffedCodec> MatchCodecMagic(std::span<const uint8_t> head) {
  if (LooksLikeGzip(head)) return {SniffedCodec::kGzip, "magic 1f 8b 08"};
  if (LooksLikeBzip2(head)) return {SniffedCodec::kBzip2, "magic BZh"};
  return Match(kCodecMagic, head, SniffedCodec::kNone);
}

namespace {

/// The magic of a format recflow does not read, at sniff_priority::kForeignMagic.
class ForeignSniffer final : public ContentSniffer {
 public:
  int priority() const override { return sniff_priority::kForeignMagic; }
  std::optional<ContentClaim> Claim(std::span<const uint8_t> head) const override {
    MagicMatch<ContentKind> magic = Match(kForeignMagic, head, ContentKind::kUnknown);
    if (magic.kind == ContentKind::kUnknown) return std::nullopt;
    return ContentClaim{magic.kind, Certainty::kChecked, std::move(magic.evidence)};
  }
};

}  // namespace

const ContentSniffer& ForeignMagicSniffer() {
  static const ForeignSniffer sniffer;
  return sniffer;
}

}  // namespace recflow::formats::internal

namespace recflow::formats {

std::optional<char> FirstTextChar(std::span<const uint8_t> head) {
  std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
  if (text.empty() || text.find('\0') != std::string_view::npos) return std::nullopt;
  // A multi-byte character cut by the end of the head is not an error.
  size_t valid = text.size();
  for (size_t back = 1; back <= 3 && back <= text.size(); ++back) {
    const auto c = static_cast<uint8_t>(text[text.size() - back]);
    if ((c & 0xC0) == 0xC0) {  // a lead byte: drop it and what follows it
      valid = text.size() - back;
      break;
    }
    if ((c & 0x80) == 0) break;
  }
  if (!IsValidUtf8(text.substr(0, valid))) return std::nullopt;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return std::nullopt;
  return text[first];
}

}  // namespace recflow::formats
