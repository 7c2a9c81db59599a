// Streaming GZIP/ZLIB decompression over recflow streams, built on ISA-L's inflate.
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstring>

#include "recflow/core/compression.h"

namespace recflow {

namespace {

/// Size of the compressed-side buffer.
constexpr size_t kChunkSize = size_t{256} << 10;
/// Largest request handed to ISA-L at once (its counters are 32-bit).
constexpr int64_t kMaxInflateRequest = int64_t{1} << 30;

/// What an isal_inflate error code means.
std::string InflateMessage(int rc) {
  switch (rc) {
    case ISAL_INVALID_BLOCK:
      return "invalid block";
    case ISAL_INVALID_SYMBOL:
      return "invalid code";
    case ISAL_INVALID_LOOKBACK:
      return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER:
      return "invalid header";
    case ISAL_UNSUPPORTED_METHOD:
      return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM:
      return "incorrect data check";
    case ISAL_NEED_DICT:
      return "needs a preset dictionary";
  }
  return "inflate error " + std::to_string(rc);
}

/// Reads decompressed bytes from a GZIP (all members) or ZLIB stream.
class InflateInputStream final : public InputStream {
 public:
  InflateInputStream(Compression c, std::unique_ptr<InputStream> raw)
      : codec_(c), raw_(std::move(raw)), in_(new uint8_t[kChunkSize]), state_(new inflate_state{}) {
    StartState(in_.get(), 0);
  }

  Result<int64_t> Read(void* out, int64_t n) override {
    if (!pending_error_.ok()) return pending_error_;
    if (n <= 0 || done_) return int64_t{0};
    const auto want = static_cast<uint32_t>(std::min(n, kMaxInflateRequest));
    state_->next_out = static_cast<uint8_t*>(out);
    state_->avail_out = want;
    while (state_->avail_out == want && !done_) {
      if (!in_member_) {
        RETURN_NOT_OK(StartMember());
        continue;
      }
      if (state_->avail_in == 0) RETURN_NOT_OK(Refill(0));
      const bool input_ended = state_->avail_in == 0;
      // At the end of the input ISA-L may still hold decoded bytes or the member's last bits:
      // the input is truncated only when a call with no input left makes no progress.
      const int rc = isal_inflate(state_.get());
      Status error;
      if (rc < 0 || rc == ISAL_NEED_DICT) {
        error = Error("corrupt " + std::string(CompressionName(codec_)) + " data: " + InflateMessage(rc));
      } else if (state_->block_state == ISAL_BLOCK_FINISH) {
        in_member_ = false;
        ReturnUnusedBytes();
      } else if (input_ended && state_->avail_out == want) {
        error = Error("truncated " + std::string(CompressionName(codec_)) + " stream");
      }
      if (!error.ok()) {
        if (state_->avail_out == want) return error;
        // The bytes inflated in the same call as the error (a bad trailer check comes after
        // the whole member) are returned first; the error comes with the next read.
        pending_error_ = std::move(error);
        break;
      }
    }
    const int64_t got = want - state_->avail_out;
    position_ += got;
    return got;
  }

  int64_t position() const override { return position_; }
  const std::string& name() const override { return raw_->name(); }

 private:
  /// Resets the state for a new member whose input starts with `avail_in` bytes at `next_in`;
  /// the output room of the read in progress stays.
  void StartState(uint8_t* next_in, uint32_t avail_in) {
    uint8_t* next_out = state_->next_out;
    const uint32_t avail_out = state_->avail_out;
    isal_inflate_init(state_.get());
    state_->crc_flag = codec_ == Compression::kGzip ? ISAL_GZIP : ISAL_ZLIB;
    state_->next_in = next_in;
    state_->avail_in = avail_in;
    state_->next_out = next_out;
    state_->avail_out = avail_out;
  }

  /// Gives the bytes ISA-L read past the end of a member but did not use back to the input
  /// (it keeps those after a zlib trailer in its bit buffer). Bytes that came from an earlier
  /// fill of the buffer cannot go back; they count as trailing bytes.
  void ReturnUnusedBytes() {
    const auto unused = static_cast<uint32_t>(state_->read_in_length / 8);
    const auto back = std::min(unused, static_cast<uint32_t>(state_->next_in - in_.get()));
    state_->next_in -= back;
    state_->avail_in += back;
    state_->read_in = 0;
    state_->read_in_length = 0;
    lost_trailing_bytes_ = unused > back;
  }

  /// Moves unread input to the front and reads until at least `min_bytes` are buffered or the
  /// raw stream ends (`min_bytes` 0: read once).
  Status Refill(size_t min_bytes) {
    if (state_->avail_in > 0 && state_->next_in != in_.get()) {
      std::memmove(in_.get(), state_->next_in, state_->avail_in);
    }
    uint8_t* const consumed_end = state_->next_in;
    state_->next_in = in_.get();
    do {
      ASSIGN_OR_RETURN(const int64_t got,
                       raw_->Read(in_.get() + state_->avail_in, static_cast<int64_t>(kChunkSize - state_->avail_in)));
      if (got == 0) break;
      state_->avail_in += static_cast<uint32_t>(got);
    } while (state_->avail_in < min_bytes);
    // At the end of the input the consumed bytes stay where they were, for ReturnUnusedBytes.
    if (state_->avail_in == 0) state_->next_in = consumed_end;
    return Status::OK();
  }

  /// At a member boundary: ends the stream at end of input, else begins the next member.
  Status StartMember() {
    if (state_->avail_in < 2) RETURN_NOT_OK(Refill(2));
    if (state_->avail_in == 0 && !lost_trailing_bytes_) {
      done_ = true;
      return Status::OK();
    }
    if (members_ > 0) {
      if (codec_ == Compression::kZlib) return Error("trailing data after the zlib stream");
      if (lost_trailing_bytes_ || state_->avail_in < 2 || state_->next_in[0] != 0x1f || state_->next_in[1] != 0x8b) {
        return Error("trailing garbage after gzip member");
      }
      StartState(state_->next_in, state_->avail_in);
    }
    ++members_;
    in_member_ = true;
    return Status::OK();
  }

  int64_t compressed_offset() const { return raw_->position() - state_->avail_in; }

  Status Error(const std::string& what) const {
    return Status::DataError(what + " at compressed byte offset " + std::to_string(compressed_offset()))
        .WithFile(raw_->name());
  }

  Compression codec_;
  std::unique_ptr<InputStream> raw_;
  std::unique_ptr<uint8_t[]> in_;
  /// ISA-L's state holds its own window (about 100 KiB): on the heap.
  std::unique_ptr<inflate_state> state_;
  bool in_member_ = false;
  /// ReturnUnusedBytes could not return all the bytes after the last member.
  bool lost_trailing_bytes_ = false;
  bool done_ = false;
  int64_t members_ = 0;
  int64_t position_ = 0;
  /// An error found after bytes that were still returned; every later read returns it.
  Status pending_error_;
};

}  // namespace

Result<std::unique_ptr<InputStream>> MakeDecompressingStream(Compression c, std::unique_ptr<InputStream> raw) {
  if (raw == nullptr) return Status::InvalidArgument("null input stream");
  if (c == Compression::kNone) return raw;
  return std::unique_ptr<InputStream>(std::make_unique<InflateInputStream>(c, std::move(raw)));
}

}  // namespace recflow
