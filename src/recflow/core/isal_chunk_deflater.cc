// ISA-L igzip raw deflate of one chunk with a state and level buffer kept per thread.
#include <isa-l/igzip_lib.h>

#include <memory>

#include "recflow/core/chunk_deflaters.h"

namespace recflow::internal {

namespace {

/// The level buffer ISA-L suggests for each of its levels 1..3, as one size that serves them all.
constexpr size_t kLevelBufferSize =
    std::max({size_t{ISAL_DEF_LVL1_DEFAULT}, size_t{ISAL_DEF_LVL2_DEFAULT}, size_t{ISAL_DEF_LVL3_DEFAULT}});

/// An igzip state (its history window is inside the struct) and level buffer that live as long
/// as their thread; a chunk re-initializes the state, which keeps no history from the last one.
class ThreadIsalDeflater {
 public:
  ThreadIsalDeflater() : stream_(new isal_zstream), level_buffer_(new uint8_t[kLevelBufferSize]) {}

  /// The state, initialized to compress a new raw-deflate chunk at `level` with an empty dictionary.
  isal_zstream* Start(int level) {
    isal_deflate_init(stream_.get());
    stream_->level = static_cast<uint32_t>(level);
    stream_->level_buf = level_buffer_.get();
    stream_->level_buf_size = kLevelBufferSize;
    stream_->gzip_flag = IGZIP_DEFLATE;
    stream_->end_of_stream = 0;
    return stream_.get();
  }

 private:
  std::unique_ptr<isal_zstream> stream_;
  std::unique_ptr<uint8_t[]> level_buffer_;
};

/// Runs isal_deflate with `flush` until the pending input is consumed and, for a sync flush,
/// all of its output is out.
Status Pump(isal_zstream* z, uint16_t flush, std::string* out, size_t* used) {
  z->flush = flush;
  auto call = [&](char* next_out, size_t room) -> Result<size_t> {
    z->next_out = reinterpret_cast<uint8_t*>(next_out);
    z->avail_out = static_cast<uint32_t>(room);
    const int rc = isal_deflate(z);
    if (rc != COMP_OK) return Status::Internal("isal_deflate failed with code " + std::to_string(rc));
    return room - z->avail_out;
  };
  return PumpDeflate(out, used, call, [&] { return z->avail_in; });
}

}  // namespace

Status IsalDeflateChunk(int level, std::span<const std::string_view> pieces, std::string* out) {
  static thread_local ThreadIsalDeflater deflater;
  isal_zstream* z = deflater.Start(level);
  const size_t total = TotalSize(pieces);
  // Stored blocks cost 5 bytes per 64 KiB; a dynamic block header at most ISAL_DEF_MAX_HDR_SIZE.
  out->resize(total + total / 1024 + 4 * ISAL_DEF_MAX_HDR_SIZE);
  auto step = [z](std::string_view input, std::string* bytes, size_t* used) {
    z->next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(input.data()));
    z->avail_in = static_cast<uint32_t>(input.size());
    return Pump(z, NO_FLUSH, bytes, used);
  };
  auto finish = [z](std::string* bytes, size_t* used) { return Pump(z, SYNC_FLUSH, bytes, used); };
  return DeflatePieces(pieces, out, step, finish);
}

}  // namespace recflow::internal
