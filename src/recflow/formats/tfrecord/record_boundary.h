// Where a TFRecord record starts: the whole-record check that resynchronisation and splits share.
#pragma once

#include <cstdint>

namespace recflow::tfrecord {

/// What the bytes at a position hold.
enum class RecordCheck : uint8_t {
  kWhole,       ///< a header whose length CRC matches, then the data and a matching data CRC
  kNotARecord,  ///< a bad length CRC, a length over the limit, or a bad data CRC
  kNeedMore,    ///< a valid header so far, but fewer bytes than the record (or its header) needs
};

/// Checks whether the `avail` bytes at `p` begin a whole valid record of at most `max_length`
/// data bytes (its data CRC checked only when `verify_crc`). *total receives the bytes the
/// check needs (a header, or the framed record) when the answer is kNeedMore or kWhole.
RecordCheck CheckRecordAt(const uint8_t* p, int64_t avail, uint64_t max_length, bool verify_crc, int64_t* total);

/// The first offset at or after `from` in `data[0, size)` where a whole valid record starts,
/// its data CRC verified (CheckRecordAt), or `size` when there is none. A position inside a
/// record's data passes only when its 12 bytes happen to hold a length with a matching masked
/// CRC-32C (2^-32 for random bytes) and the bytes that length spans end in their own matching
/// CRC (another 2^-32); data that embeds TFRecord framing itself (a TFRecord file stored as a
/// bytes feature) is the exception, see docs/formats/tfrecord.md.
int64_t FindRecordStart(const uint8_t* data, int64_t size, int64_t from, uint64_t max_length);

}  // namespace recflow::tfrecord
