// ContentSniffer: one format's check of an input's first bytes, registered through its FormatDescriptor and run by Sniff.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "recflow/formats/sniff.h"

namespace recflow::formats {

/// What a content check found in a head: the content it claims, how surely, and why.
struct ContentClaim {
  /// The content claimed; kUnknown for a format with no ContentKind of its own (a registered
  /// format then owns the claim through its sniffer).
  ContentKind content = ContentKind::kUnknown;
  /// kChecked for a magic number or framing checked in the bytes, kGuess for a text heuristic
  /// (the file name's suffix decides over a guess; guesses run after the checked claims).
  Certainty certainty = Certainty::kChecked;
  /// What in the bytes decided it ("magic Obj 01").
  std::string evidence;
};

/// Sniff's order of the built-in checks (lower runs first): the TFRecord length CRC, the Arrow
/// IPC file magic, Avro's magic, the magic of formats recflow does not read, the Arrow IPC stream
/// framing, then the text guesses (JSON Lines before CSV). A format of its own picks its place
/// among them.
namespace sniff_priority {
inline constexpr int kTfrecord = 100;
inline constexpr int kArrowFile = 200;
inline constexpr int kAvro = 300;
inline constexpr int kForeignMagic = 350;
inline constexpr int kArrowStream = 400;
inline constexpr int kJsonlText = 900;
inline constexpr int kCsvText = 1000;
}  // namespace sniff_priority

/// One format's content check. Stateless and shared by every thread; called once per input (a
/// pipe: once per read of its head, a few times), never per record. Must not fail or read out
/// of `head` on hostile bytes.
class ContentSniffer {
 public:
  virtual ~ContentSniffer() = default;
  /// Where the check runs among the others (sniff_priority): the first claim decides (a telling
  /// suffix decides over a guess), and the checks after it do not run.
  virtual int priority() const = 0;
  /// The claim `head` supports (the input's first bytes, decompressed when the input is gzip or
  /// zlib; any length, possibly cut anywhere); nullopt when the check does not hold.
  virtual std::optional<ContentClaim> Claim(std::span<const uint8_t> head) const = 0;
};

/// The first non-blank character of `head` (a UTF-8 byte-order mark skipped) when `head` is text:
/// valid UTF-8 without NUL bytes, its last character possibly cut off. Nullopt for binary bytes
/// and for a head of blanks only. What the text formats' checks go by.
std::optional<char> FirstTextChar(std::span<const uint8_t> head);

}  // namespace recflow::formats
