// Sniff: compression by magic, then the content by the formats' registered checks in priority order; the name last.
#include "recflow/formats/sniff.h"

#include <algorithm>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/formats/content_sniffer.h"
#include "recflow/formats/sniff_magic_internal.h"

namespace recflow::formats {

namespace {

using internal::MagicMatch;

std::span<const uint8_t> AsBytes(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

/// The first bytes of a gzip or zlib stream, decompressed up to kSniffHeadBytes: what the
/// compressed head yields before it ends or turns out corrupt. Nullopt when nothing inflates.
std::optional<std::vector<uint8_t>> InflateHead(Compression codec, std::span<const uint8_t> head) {
  auto raw = std::make_unique<BufferInputStream>(Buffer::Wrap(head.data(), static_cast<int64_t>(head.size())));
  Result<std::unique_ptr<InputStream>> stream = MakeDecompressingStream(codec, std::move(raw));
  if (!stream.ok()) return std::nullopt;
  std::vector<uint8_t> out(static_cast<size_t>(kSniffHeadBytes));
  size_t size = 0;
  bool failed = false;
  while (size < out.size()) {
    Result<int64_t> got = (*stream)->Read(out.data() + size, static_cast<int64_t>(out.size() - size));
    if (!got.ok()) {  // corrupt, or the compressed head ends here: keep what came out
      failed = true;
      break;
    }
    if (*got == 0) break;
    size += static_cast<size_t>(*got);
  }
  if (failed && size == 0) return std::nullopt;
  out.resize(size);
  return out;
}

/// A claim and the check that made it.
struct Claimed {
  ContentClaim claim;
  const ContentSniffer* by = nullptr;
};

/// Runs `sniffers` (sorted by priority) on `bytes`, the foreign magic among them at its priority,
/// calling `found` with each claim until it returns true.
template <typename Found>
void RunChecks(ContentSniffers sniffers, std::span<const uint8_t> bytes, Found found) {
  const ContentSniffer& foreign = internal::ForeignMagicSniffer();
  bool foreign_ran = false;
  auto run = [&](const ContentSniffer& sniffer) {
    std::optional<ContentClaim> claim = sniffer.Claim(bytes);
    return claim && found(Claimed{std::move(*claim), &sniffer});
  };
  for (const ContentSniffer* sniffer : sniffers) {
    if (!foreign_ran && sniffer->priority() > foreign.priority()) {
      foreign_ran = true;
      if (run(foreign)) return;
    }
    if (run(*sniffer)) return;
  }
  if (!foreign_ran) run(foreign);
}

/// The first claim on `bytes` in priority order, checked or guessed; nullopt when no check holds.
std::optional<Claimed> FirstClaim(ContentSniffers sniffers, std::span<const uint8_t> bytes) {
  std::optional<Claimed> first;
  RunChecks(sniffers, bytes, [&first](Claimed claimed) {
    first = std::move(claimed);
    return true;
  });
  return first;
}

bool IsChecked(const std::optional<Claimed>& claimed) {
  return claimed && claimed->claim.certainty == Certainty::kChecked;
}

/// True when `bytes` start with a whole line that a guess claims: text is judged by it, and more
/// bytes would not turn it into a binary format (their magic is at offset 0).
bool StartsWithTextLine(ContentSniffers sniffers, std::span<const uint8_t> bytes) {
  const auto newline = std::find(bytes.begin(), bytes.end(), uint8_t{'\n'});
  if (newline == bytes.end()) return false;
  const auto line = bytes.first(static_cast<size_t>(newline - bytes.begin()) + 1);
  const std::optional<Claimed> claimed = FirstClaim(sniffers, line);
  return claimed && claimed->claim.certainty == Certainty::kGuess;
}

/// Sets `out` to the claim that decided.
void Take(Claimed claimed, Sniffed* out) {
  out->content = claimed.claim.content;
  out->certainty = claimed.claim.certainty;
  out->evidence = std::move(claimed.claim.evidence);
  // The foreign magic is format-independent: no registered format owns its claims.
  if (claimed.by != &internal::ForeignMagicSniffer()) out->claimed_by = claimed.by;
}

/// The content of decompressed bytes whose first claim is `first`, with the name deciding over a
/// guess and for unknown bytes.
void DecideContent(std::string_view name, std::span<const uint8_t> bytes, const SniffRules& rules,
                   std::optional<Claimed> first, Sniffed* out) {
  const ContentKind by_name = ContentFromSuffix(name, rules.suffixes);
  if (bytes.empty()) {
    out->content = by_name == ContentKind::kUnknown ? ContentKind::kEmpty : by_name;
    out->certainty = by_name == ContentKind::kUnknown ? Certainty::kChecked : Certainty::kSuffix;
    out->evidence = "no bytes";
    return;
  }
  if (IsChecked(first)) {
    Take(std::move(*first), out);
    out->decided = true;
    return;
  }
  out->decided = StartsWithTextLine(rules.checks, bytes);
  if (by_name != ContentKind::kUnknown) {
    out->content = by_name;
    out->certainty = Certainty::kSuffix;
    return;
  }
  if (first) Take(std::move(*first), out);
}

}  // namespace

Sniffed Sniff(std::string_view name, std::span<const uint8_t> head, const SniffRules& rules) {
  if (head.size() > static_cast<size_t>(kSniffHeadBytes)) head = head.first(static_cast<size_t>(kSniffHeadBytes));
  Sniffed out;
  // Uncompressed binary content first: a TFRecord length or an Arrow stream length can look
  // like a zlib header (a first record of 40056 bytes starts 78 9c).
  std::optional<Claimed> first = FirstClaim(rules.checks, head);
  if (IsChecked(first)) {
    DecideContent(name, head, rules, std::move(first), &out);
    return out;
  }
  MagicMatch<SniffedCodec> codec = internal::MatchCodecMagic(head);
  std::optional<std::vector<uint8_t>> inflated;
  if (codec.kind == SniffedCodec::kNone && LooksLikeZlib(head)) {
    // Two header bytes are a weak sign: the head must also inflate.
    inflated = InflateHead(Compression::kZlib, head);
    if (inflated) codec = {SniffedCodec::kZlib, "a zlib header that inflates"};
  } else if (codec.kind == SniffedCodec::kGzip) {
    inflated = InflateHead(Compression::kGzip, head);
  }
  out.codec = codec.kind;
  if (codec.kind == SniffedCodec::kNone) {
    DecideContent(name, head, rules, std::move(first), &out);
    return out;
  }
  if (!ReadableCompression(codec.kind)) {
    out.evidence = std::move(codec.evidence);
    out.decided = true;
    return out;
  }
  // A gzip head that does not inflate is still gzip: the reader names the fault and offset.
  if (inflated) DecideContent(name, *inflated, rules, FirstClaim(rules.checks, *inflated), &out);
  if (out.content == ContentKind::kUnknown && out.claimed_by == nullptr) {
    out.content = ContentFromSuffix(name, rules.suffixes);
    if (out.content != ContentKind::kUnknown) out.certainty = Certainty::kSuffix;
  }
  out.evidence = out.evidence.empty() ? codec.evidence : codec.evidence + ", then " + out.evidence;
  return out;
}

Result<Sniffed> SniffFile(const std::string& path, const SniffRules& rules, FileSystem& fs) {
  if (path != "-") {
    Result<FileInfo> info = fs.GetTargetInfo(path);
    if (!info.ok()) return info.status().WithFile(path);
    if (!info->exists()) return Status::NotFound(path + ": no such file or directory").WithFile(path);
    if (info->is_directory()) return Status::InvalidArgument(path + ": is a directory").WithFile(path);
    if (info->type == FileType::kFile) {
      Result<std::shared_ptr<Buffer>> head = fs.ReadRange(path, 0, kSniffHeadBytes);
      if (!head.ok()) return head.status().WithFile(path);
      return Sniff(path, (*head)->span(), rules);
    }
  }
  auto enough = [&](std::string_view head) { return Sniff(path, AsBytes(head), rules).decided; };
  Result<std::string> head = PeekInput(path, kSniffHeadBytes, enough);
  if (!head.ok()) return head.status().WithFile(path);
  return Sniff(path, AsBytes(*head), rules);
}

Result<std::string> ReadSniffHead(InputStream& in, const SniffRules& rules) {
  std::string head;
  while (head.size() < static_cast<size_t>(kSniffHeadBytes) && !Sniff(in.name(), AsBytes(head), rules).decided) {
    const size_t before = head.size();
    head.resize(static_cast<size_t>(kSniffHeadBytes));
    Result<int64_t> got = in.Read(head.data() + before, kSniffHeadBytes - static_cast<int64_t>(before));
    head.resize(before + static_cast<size_t>(got.ok() ? *got : 0));
    if (!got.ok()) return got.status();
    if (*got == 0) break;
  }
  return head;
}

ContentKind ContentFromSuffix(std::string_view name, std::span<const SuffixRule> registered) {
  for (std::string_view z : {".gz", ".zz", ".zlib"}) {
    if (name.ends_with(z)) {
      name.remove_suffix(z.size());
      break;
    }
  }
  static constexpr SuffixRule kForeign[] = {
      {".parquet", ContentKind::kParquet}, {".orc", ContentKind::kOrc},  {".tif", ContentKind::kTiff},
      {".tiff", ContentKind::kTiff},       {".TIF", ContentKind::kTiff},
  };
  for (std::span<const SuffixRule> rules : {registered, std::span<const SuffixRule>(kForeign)}) {
    for (const SuffixRule& rule : rules) {
      if (name.ends_with(rule.suffix)) return rule.content;
    }
  }
  return ContentKind::kUnknown;
}

std::string_view CodecName(SniffedCodec codec) {
  switch (codec) {
    case SniffedCodec::kNone: return "none";
    case SniffedCodec::kGzip: return "gzip";
    case SniffedCodec::kZlib: return "zlib";
    case SniffedCodec::kZstd: return "zstd";
    case SniffedCodec::kBzip2: return "bzip2";
    case SniffedCodec::kXz: return "xz";
    case SniffedCodec::kLz4Frame: return "lz4";
    case SniffedCodec::kSnappyFramed: return "snappy";
  }
  return "unknown";
}

std::optional<Compression> ReadableCompression(SniffedCodec codec) {
  switch (codec) {
    case SniffedCodec::kNone: return Compression::kNone;
    case SniffedCodec::kGzip: return Compression::kGzip;
    case SniffedCodec::kZlib: return Compression::kZlib;
    default: return std::nullopt;
  }
}

std::string_view ContentName(ContentKind content) {
  switch (content) {
    case ContentKind::kUnknown: return "unknown";
    case ContentKind::kEmpty: return "empty";
    case ContentKind::kTfrecord: return "TFRecord";
    case ContentKind::kArrowFile: return "Arrow IPC file";
    case ContentKind::kArrowStream: return "Arrow IPC stream";
    case ContentKind::kArrowLegacyStream: return "Arrow IPC stream (pre-0.15 format)";
    case ContentKind::kAvro: return "Avro";
    case ContentKind::kJsonl: return "JSON Lines";
    case ContentKind::kCsv: return "CSV";
    case ContentKind::kParquet: return "Parquet file";
    case ContentKind::kOrc: return "ORC file";
    case ContentKind::kTiff: return "TIFF/GeoTIFF image";
    case ContentKind::kBigTiff: return "BigTIFF image";
    case ContentKind::kPng: return "PNG image";
    case ContentKind::kJpeg: return "JPEG image";
    case ContentKind::kGif: return "GIF image";
    case ContentKind::kHdf5: return "HDF5 file";
    case ContentKind::kNumpy: return "NumPy array file";
    case ContentKind::kZip: return "ZIP archive";
    case ContentKind::kFeatherV1: return "Feather v1 file";
    case ContentKind::kPdf: return "PDF document";
    case ContentKind::kSqlite: return "SQLite database";
    case ContentKind::kSevenZip: return "7-Zip archive";
  }
  return "unknown";
}

bool IsForeign(ContentKind content) { return content >= ContentKind::kParquet; }

}  // namespace recflow::formats
