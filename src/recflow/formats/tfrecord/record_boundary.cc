// CheckRecordAt and FindRecordStart: header CRC, length limit and data CRC at one position.
#include "recflow/formats/tfrecord/record_boundary.h"

#include <algorithm>

#include "recflow/formats/tfrecord/framing.h"

namespace recflow::tfrecord {

RecordCheck CheckRecordAt(const uint8_t* p, int64_t avail, uint64_t max_length, bool verify_crc, int64_t* total) {
  if (avail < kHeaderSize) {
    *total = kHeaderSize;
    return RecordCheck::kNeedMore;
  }
  if (!HeaderCrcMatches(p)) return RecordCheck::kNotARecord;
  const uint64_t length = LoadLittleEndian64(p);
  if (length > std::min(kMaxRecordLength, max_length)) return RecordCheck::kNotARecord;
  *total = kFramingOverhead + static_cast<int64_t>(length);
  if (*total > avail) return RecordCheck::kNeedMore;
  const uint8_t* payload = p + kHeaderSize;
  if (verify_crc && MaskedCrc32c(payload, length) != LoadLittleEndian32(payload + length)) {
    return RecordCheck::kNotARecord;
  }
  return RecordCheck::kWhole;
}

int64_t FindRecordStart(const uint8_t* data, int64_t size, int64_t from, uint64_t max_length) {
  for (int64_t pos = std::max<int64_t>(from, 0); pos + kFramingOverhead <= size; ++pos) {
    int64_t total = 0;
    if (CheckRecordAt(data + pos, size - pos, max_length, true, &total) == RecordCheck::kWhole) return pos;
  }
  return size;
}

}  // namespace recflow::tfrecord
