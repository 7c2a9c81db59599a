// Streaming GZIP/ZLIB decompression and compression over recflow streams, built on zlib.
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "recflow/core/compression.h"

namespace recflow {

namespace {

/// Size of the compressed-side buffer of both stream directions.
constexpr size_t kChunkSize = size_t{256} << 10;
/// Largest request handed to zlib at once (its counters are unsigned int).
constexpr int64_t kMaxZlibRequest = int64_t{1} << 30;

std::string ZlibMessage(const z_stream& z, int rc) {
  if (z.msg != nullptr) return z.msg;
  return "zlib error " + std::to_string(rc);
}

/// Reads decompressed bytes from a GZIP (all members) or ZLIB stream.
class InflateInputStream final : public InputStream {
 public:
  InflateInputStream(Compression c, std::unique_ptr<InputStream> raw)
      : codec_(c), raw_(std::move(raw)), in_(new uint8_t[kChunkSize]) {}
  ~InflateInputStream() override {
    if (initialized_) inflateEnd(&z_);
  }

  Status Init() {
    const int rc = inflateInit2(&z_, codec_ == Compression::kGzip ? 16 + MAX_WBITS : MAX_WBITS);
    if (rc != Z_OK) return Status::OutOfMemory("cannot initialize zlib: " + ZlibMessage(z_, rc));
    initialized_ = true;
    return Status::OK();
  }

  Result<int64_t> Read(void* out, int64_t n) override {
    if (!pending_error_.ok()) return pending_error_;
    if (n <= 0 || done_) return int64_t{0};
    const auto want = static_cast<uInt>(std::min(n, kMaxZlibRequest));
    z_.next_out = static_cast<Bytef*>(out);
    z_.avail_out = want;
    while (z_.avail_out == want && !done_) {
      if (!in_member_) {
        RETURN_NOT_OK(StartMember());
        continue;
      }
      if (z_.avail_in == 0) {
        RETURN_NOT_OK(Refill(0));
        if (z_.avail_in == 0) return Error("truncated " + std::string(CompressionName(codec_)) + " stream");
      }
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member_ = false;
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        Status error = rc == Z_MEM_ERROR
                           ? Status::OutOfMemory(raw_->name() + ": zlib is out of memory")
                           : Error("corrupt " + std::string(CompressionName(codec_)) + " data: " + ZlibMessage(z_, rc));
        if (z_.avail_out == want) return error;
        // The bytes inflated in the same call as the error (a bad trailer check comes after
        // the whole member) are returned first; the error comes with the next read.
        pending_error_ = std::move(error);
        break;
      }
    }
    const int64_t got = want - z_.avail_out;
    position_ += got;
    return got;
  }

  int64_t position() const override { return position_; }
  const std::string& name() const override { return raw_->name(); }

 private:
  /// Moves unread input to the front and reads until at least `min_bytes` are buffered or the
  /// raw stream ends (`min_bytes` 0: read once).
  Status Refill(size_t min_bytes) {
    if (z_.avail_in > 0 && z_.next_in != in_.get()) std::memmove(in_.get(), z_.next_in, z_.avail_in);
    z_.next_in = in_.get();
    do {
      ASSIGN_OR_RETURN(const int64_t got, raw_->Read(in_.get() + z_.avail_in, kChunkSize - z_.avail_in));
      if (got == 0) break;
      z_.avail_in += static_cast<uInt>(got);
    } while (z_.avail_in < min_bytes);
    return Status::OK();
  }

  /// At a member boundary: ends the stream at end of input, else begins the next member.
  Status StartMember() {
    if (z_.avail_in < 2) RETURN_NOT_OK(Refill(2));
    if (z_.avail_in == 0) {
      done_ = true;
      return Status::OK();
    }
    if (members_ > 0) {
      if (codec_ == Compression::kZlib) return Error("trailing data after the zlib stream");
      if (z_.avail_in < 2 || z_.next_in[0] != 0x1f || z_.next_in[1] != 0x8b) {
        return Error("trailing garbage after gzip member");
      }
      if (inflateReset(&z_) != Z_OK) return Status::Internal("inflateReset failed");
    }
    ++members_;
    in_member_ = true;
    return Status::OK();
  }

  int64_t compressed_offset() const { return raw_->position() - z_.avail_in; }

  Status Error(const std::string& what) const {
    return Status::DataError(what + " at compressed byte offset " + std::to_string(compressed_offset()))
        .WithFile(raw_->name());
  }

  Compression codec_;
  std::unique_ptr<InputStream> raw_;
  std::unique_ptr<uint8_t[]> in_;
  z_stream z_{};
  bool initialized_ = false;
  bool in_member_ = false;
  bool done_ = false;
  int64_t members_ = 0;
  int64_t position_ = 0;
  /// An error found after bytes that were still returned; every later read returns it.
  Status pending_error_;
};

/// Compresses written bytes into a GZIP or ZLIB stream on `raw`.
class DeflateOutputStream final : public OutputStream {
 public:
  explicit DeflateOutputStream(std::unique_ptr<OutputStream> raw) : raw_(std::move(raw)), out_(new uint8_t[kChunkSize]) {}
  ~DeflateOutputStream() override {
    // Errors cannot be reported here; callers learn them from Close().
    (void)Close();
  }

  Status Init(Compression c, int level) {
    if (level < -1 || level > 9) {
      return Status::InvalidArgument("zlib compression level must be 0..9 or -1, not " + std::to_string(level));
    }
    const int bits = c == Compression::kGzip ? 16 + MAX_WBITS : MAX_WBITS;
    const int rc = deflateInit2(&z_, level, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) return Status::OutOfMemory("cannot initialize zlib: " + ZlibMessage(z_, rc));
    initialized_ = true;
    return Status::OK();
  }

  Status Write(const void* data, int64_t n) override {
    if (!initialized_) return Status::IOError(name() + ": write after close");
    const auto* p = static_cast<const uint8_t*>(data);
    while (n > 0) {
      const int64_t take = std::min(n, kMaxZlibRequest);
      z_.next_in = const_cast<Bytef*>(p);
      z_.avail_in = static_cast<uInt>(take);
      RETURN_NOT_OK(Pump(Z_NO_FLUSH));
      p += take;
      n -= take;
      position_ += take;
    }
    return Status::OK();
  }

  /// Emits a zlib sync flush (all input so far becomes decodable) and flushes `raw`.
  Status Flush() override {
    if (!initialized_) return Status::IOError(name() + ": flush after close");
    RETURN_NOT_OK(Pump(Z_SYNC_FLUSH));
    return raw_->Flush();
  }

  Status Close() override {
    if (!initialized_) return Status::OK();
    Status st = Pump(Z_FINISH);
    deflateEnd(&z_);
    initialized_ = false;
    Status closed = raw_->Close();
    return st.ok() ? closed : st;
  }

  int64_t position() const override { return position_; }
  const std::string& name() const override { return raw_->name(); }

 private:
  /// Runs deflate until the pending input is consumed (and, for Z_FINISH, the trailer written).
  Status Pump(int flush) {
    for (;;) {
      z_.next_out = out_.get();
      z_.avail_out = kChunkSize;
      const int rc = deflate(&z_, flush);
      if (rc != Z_OK && rc != Z_BUF_ERROR && rc != Z_STREAM_END) {
        return Status::Internal(name() + ": deflate failed: " + ZlibMessage(z_, rc));
      }
      const int64_t produced = static_cast<int64_t>(kChunkSize - z_.avail_out);
      if (produced > 0) RETURN_NOT_OK(raw_->Write(out_.get(), produced));
      const bool drained = z_.avail_in == 0 && z_.avail_out != 0;
      if (flush == Z_FINISH ? rc == Z_STREAM_END : drained) return Status::OK();
    }
  }

  std::unique_ptr<OutputStream> raw_;
  std::unique_ptr<uint8_t[]> out_;
  z_stream z_{};
  bool initialized_ = false;
  int64_t position_ = 0;
};

}  // namespace

Result<std::unique_ptr<InputStream>> MakeDecompressingStream(Compression c, std::unique_ptr<InputStream> raw) {
  if (raw == nullptr) return Status::InvalidArgument("null input stream");
  if (c == Compression::kNone) return raw;
  auto stream = std::make_unique<InflateInputStream>(c, std::move(raw));
  RETURN_NOT_OK(stream->Init());
  return std::unique_ptr<InputStream>(std::move(stream));
}

Result<std::unique_ptr<OutputStream>> MakeCompressingStream(Compression c, std::unique_ptr<OutputStream> raw,
                                                            int level) {
  if (raw == nullptr) return Status::InvalidArgument("null output stream");
  if (c == Compression::kNone) return raw;
  auto stream = std::make_unique<DeflateOutputStream>(std::move(raw));
  RETURN_NOT_OK(stream->Init(c, level));
  return std::unique_ptr<OutputStream>(std::move(stream));
}

}  // namespace recflow
