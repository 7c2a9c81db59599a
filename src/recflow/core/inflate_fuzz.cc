// libFuzzer target: arbitrary bytes as GZIP and as ZLIB through the streaming inflate, checked against libdeflate.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "recflow/core/compression.h"

namespace {

/// Cap on the inflated bytes of one input (a bomb stops here, not at the end of memory).
constexpr int64_t kMaxOutput = int64_t{1} << 20;

/// The stream's bytes read in pieces of `piece` bytes (at most kMaxOutput), or its error.
recflow::Result<std::string> Inflate(recflow::Compression c, const std::shared_ptr<recflow::Buffer>& input,
                                     int64_t piece) {
  auto raw = std::make_unique<recflow::BufferInputStream>(input, "fuzz");
  ASSIGN_OR_RETURN(auto stream, recflow::MakeDecompressingStream(c, std::move(raw)));
  std::string out;
  std::string chunk(static_cast<size_t>(piece), '\0');
  while (static_cast<int64_t>(out.size()) < kMaxOutput) {
    ASSIGN_OR_RETURN(const int64_t got, stream->Read(chunk.data(), piece));
    if (got == 0) break;
    out.append(chunk.data(), static_cast<size_t>(got));
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto input = recflow::Buffer::Wrap(data, static_cast<int64_t>(size));
  // The read size comes from the input, so mutations try many.
  const int64_t piece = size == 0 ? 1 : 1 + data[size - 1] % 97 * 61;
  for (recflow::Compression c : {recflow::Compression::kGzip, recflow::Compression::kZlib}) {
    const auto small = Inflate(c, input, piece);
    const auto large = Inflate(c, input, int64_t{64} << 10);
    // However the bytes are asked for, the stream gives the same bytes or fails.
    if (small.ok() != large.ok()) std::abort();
    if (!small.ok()) {
      if (small.status().code() != recflow::StatusCode::kDataError) std::abort();
      continue;
    }
    if (static_cast<int64_t>(small->size()) >= kMaxOutput || static_cast<int64_t>(large->size()) >= kMaxOutput) continue;
    if (*small != *large) std::abort();
    // Where libdeflate also accepts the whole input, it inflates the same bytes.
    const auto whole = recflow::DecompressBuffer(c, {data, size}, kMaxOutput);
    if (whole.ok() && (*whole)->view() != *small) std::abort();
  }
  return 0;
}
