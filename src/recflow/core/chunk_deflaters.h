// The two raw-deflate engines behind CompressChunk (zlib and ISA-L igzip), each with one state per thread.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "recflow/core/result.h"
#include "recflow/core/status.h"

namespace recflow::internal {

/// Largest request handed to a deflate library at once (their counters are 32-bit).
inline constexpr size_t kMaxDeflateRequest = size_t{1} << 30;

/// The bytes in all of `pieces`.
inline size_t TotalSize(std::span<const std::string_view> pieces) {
  size_t total = 0;
  for (std::string_view piece : pieces) total += piece.size();
  return total;
}

/// Compresses the concatenation of `pieces` with zlib at `level` (0..9) into `out` as raw
/// deflate blocks with a fresh dictionary, ending in a sync flush (byte-aligned, no final
/// block). `out` is resized to the compressed bytes. Each thread keeps one zlib state.
Status ZlibDeflateChunk(int level, std::span<const std::string_view> pieces, std::string* out);

/// As ZlibDeflateChunk, with ISA-L igzip at its `level` (1..3). Each thread keeps one ISA-L
/// state and level buffer (about 600 KiB).
Status IsalDeflateChunk(int level, std::span<const std::string_view> pieces, std::string* out);

/// Feeds each piece to `step` in requests of at most kMaxDeflateRequest bytes, then calls
/// `finish`; both get the output string and the count of bytes used in it so far. `out` is
/// resized to what was used at the end.
template <typename Step, typename Finish>
Status DeflatePieces(std::span<const std::string_view> pieces, std::string* out, Step step, Finish finish) {
  size_t used = 0;
  for (std::string_view piece : pieces) {
    for (size_t pos = 0; pos < piece.size();) {
      const size_t take = std::min(piece.size() - pos, kMaxDeflateRequest);
      RETURN_NOT_OK(step(piece.substr(pos, take), out, &used));
      pos += take;
    }
  }
  RETURN_NOT_OK(finish(out, &used));
  out->resize(used);
  return Status::OK();
}

/// Runs `call(next_out, room)` (one library call that consumes pending input into at most
/// `room` bytes at `next_out` and returns the bytes it produced, or an error) until it leaves
/// output room unused with no input pending (`input_left()` is 0), growing `out` when full.
template <typename Call, typename InputLeft>
Status PumpDeflate(std::string* out, size_t* used, Call call, InputLeft input_left) {
  for (;;) {
    if (*used == out->size()) out->resize(std::max<size_t>(out->size() * 2, 64));
    const size_t room = std::min(out->size() - *used, kMaxDeflateRequest);
    ASSIGN_OR_RETURN(const size_t produced, call(out->data() + *used, room));
    *used += produced;
    if (input_left() == 0 && produced < room) return Status::OK();
  }
}

}  // namespace recflow::internal
