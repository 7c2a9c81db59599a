// TfrecordSniffer: the first record header's length CRC, checked in the head.
#include "recflow/formats/tfrecord/framing.h"
#include "recflow/formats/tfrecord/tfrecord_sniffer_internal.h"

namespace recflow::tfrecord {

std::optional<formats::ContentClaim> TfrecordSniffer::Claim(std::span<const uint8_t> head) const {
  if (head.size() < static_cast<size_t>(kHeaderSize) || !HeaderCrcMatches(head.data())) return std::nullopt;
  return formats::ContentClaim{formats::ContentKind::kTfrecord, formats::Certainty::kChecked,
                               "a TFRecord header with a valid length CRC"};
}

}  // namespace recflow::tfrecord
