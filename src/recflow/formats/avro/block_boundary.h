// Where Avro container blocks start: after the header and after each sync marker (the spec's splitting mechanism).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "recflow/core/buffer.h"
#include "recflow/core/result.h"
#include "recflow/formats/avro/framing.h"

namespace recflow::avro {

/// What splitting a container needs from its header.
struct ContainerLayout {
  /// Bytes of the header, sync marker included: where the first block starts.
  int64_t header_size = 0;
  /// The file's sync marker.
  std::array<uint8_t, kSyncSize> sync{};
};

/// Reads the header of the container in `data` (errors as for AvroReader::Open, naming `name`).
Result<ContainerLayout> ReadContainerLayout(const std::shared_ptr<Buffer>& data, const std::string& name);

/// The offset of the first block that starts at or after `at`: the header's end when `at` is
/// within the header, else just past the first sync marker that ends at or after `at`, or
/// data->size() when none does. A block starts right after a sync marker, so a split that owns
/// the blocks starting in [begin, end) reads from BlockStartAtOrAfter(begin) up to
/// BlockStartAtOrAfter(end). Finding the 16-byte marker inside block data by chance has
/// probability 2^-128 per position (the marker is random per file).
int64_t BlockStartAtOrAfter(const Buffer& data, const ContainerLayout& layout, int64_t at);

}  // namespace recflow::avro
