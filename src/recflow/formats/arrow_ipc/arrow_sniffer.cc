// ArrowFileSniffer / ArrowStreamSniffer: LooksLikeFile and LooksLikeStream as claims with their evidence.
#include "recflow/formats/arrow_ipc/arrow_sniffer_internal.h"
#include "recflow/formats/arrow_ipc/looks_like.h"

namespace recflow::arrow_ipc {

namespace {

std::string_view AsText(std::span<const uint8_t> head) {
  return {reinterpret_cast<const char*>(head.data()), head.size()};
}

}  // namespace

std::optional<formats::ContentClaim> ArrowFileSniffer::Claim(std::span<const uint8_t> head) const {
  if (!LooksLikeFile(AsText(head))) return std::nullopt;
  return formats::ContentClaim{formats::ContentKind::kArrowFile, formats::Certainty::kChecked,
                               "magic ARROW1 and an IPC message"};
}

std::optional<formats::ContentClaim> ArrowStreamSniffer::Claim(std::span<const uint8_t> head) const {
  switch (LooksLikeStream(AsText(head))) {
    case StreamFraming::kContinuation:
      return formats::ContentClaim{formats::ContentKind::kArrowStream, formats::Certainty::kChecked,
                                   "continuation marker and a Schema message"};
    case StreamFraming::kLegacy:
      return formats::ContentClaim{formats::ContentKind::kArrowLegacyStream, formats::Certainty::kChecked,
                                   "a length-prefixed Schema message without continuation marker"};
    case StreamFraming::kNotAStream:
      break;
  }
  return std::nullopt;
}

}  // namespace recflow::arrow_ipc
