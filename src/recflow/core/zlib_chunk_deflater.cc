// zlib raw deflate of one chunk with a deflate state kept per thread (the levels ISA-L does not serve).
#include <zlib.h>

#include "recflow/core/chunk_deflaters.h"

namespace recflow::internal {

namespace {

/// Room beyond deflateBound() for the sync-flush marker, which the bound does not count.
constexpr size_t kFlushSlack = 16;

/// A raw-deflate state that lives as long as its thread, so that a chunk costs a deflateReset
/// instead of allocating and clearing the window and hash tables. A level change
/// re-initializes instead of calling deflateParams, whose behaviour on a freshly reset stream
/// differs between zlib versions; callers change levels rarely.
class ThreadDeflater {
 public:
  ThreadDeflater() = default;
  ThreadDeflater(const ThreadDeflater&) = delete;
  ThreadDeflater& operator=(const ThreadDeflater&) = delete;
  ~ThreadDeflater() {
    if (initialized_) deflateEnd(&z_);
  }

  /// The state, reset to compress a new chunk at `level` with an empty dictionary.
  Result<z_stream*> Start(int level) {
    if (initialized_ && level == level_) {
      if (deflateReset(&z_) != Z_OK) return Status::Internal("deflateReset failed");
      return &z_;
    }
    if (initialized_) deflateEnd(&z_);
    z_ = z_stream{};
    initialized_ = deflateInit2(&z_, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    if (!initialized_) return Status::OutOfMemory("cannot initialize zlib deflate");
    level_ = level;
    return &z_;
  }

 private:
  z_stream z_{};
  bool initialized_ = false;
  int level_ = 0;
};

/// Runs deflate with `flush` until the pending input is consumed and, for a flush, all of its
/// output is out.
Status Pump(z_stream* z, int flush, std::string* out, size_t* used) {
  auto call = [&](char* next_out, size_t room) -> Result<size_t> {
    z->next_out = reinterpret_cast<Bytef*>(next_out);
    z->avail_out = static_cast<uInt>(room);
    if (deflate(z, flush) == Z_STREAM_ERROR) return Status::Internal("deflate failed: inconsistent stream state");
    return room - z->avail_out;
  };
  return PumpDeflate(out, used, call, [&] { return z->avail_in; });
}

}  // namespace

Status ZlibDeflateChunk(int level, std::span<const std::string_view> pieces, std::string* out) {
  static thread_local ThreadDeflater deflater;
  ASSIGN_OR_RETURN(z_stream * z, deflater.Start(level));
  out->resize(deflateBound(z, TotalSize(pieces)) + kFlushSlack);
  auto step = [z](std::string_view input, std::string* bytes, size_t* used) {
    z->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    z->avail_in = static_cast<uInt>(input.size());
    return Pump(z, Z_NO_FLUSH, bytes, used);
  };
  auto finish = [z](std::string* bytes, size_t* used) { return Pump(z, Z_SYNC_FLUSH, bytes, used); };
  return DeflatePieces(pieces, out, step, finish);
}

}  // namespace recflow::internal
