// MakeCompressingStream: written bytes cut into 1 MiB chunks, compressed by CompressChunk and joined into one stream.
#include "recflow/core/chunked_compression.h"

namespace recflow {

namespace {

/// Uncompressed bytes per chunk, as the dataset writer cuts them.
constexpr size_t kChunkBytes = size_t{1} << 20;

/// Compresses written bytes into one GZIP or ZLIB stream on `raw`, a chunk at a time.
class ChunkedCompressingStream final : public OutputStream {
 public:
  ChunkedCompressingStream(Compression c, std::unique_ptr<OutputStream> raw, int level)
      : compression_(c), level_(level), raw_(std::move(raw)), writer_(c, raw_.get(), level) {
    pending_.reserve(kChunkBytes);
  }
  ~ChunkedCompressingStream() override {
    // Errors cannot be reported here; callers learn them from Close().
    (void)Close();
  }

  Status Write(const void* data, int64_t n) override {
    if (closed_) return Status::IOError(name() + ": write after close");
    const auto* p = static_cast<const char*>(data);
    while (n > 0) {
      const size_t take = std::min(static_cast<size_t>(n), kChunkBytes - pending_.size());
      pending_.append(p, take);
      p += take;
      n -= static_cast<int64_t>(take);
      position_ += static_cast<int64_t>(take);
      if (pending_.size() == kChunkBytes) RETURN_NOT_OK(CompressPending());
    }
    return Status::OK();
  }

  /// Compresses what is pending as a chunk (it ends byte-aligned, so all input so far becomes
  /// decodable) and flushes `raw`.
  Status Flush() override {
    if (closed_) return Status::IOError(name() + ": flush after close");
    RETURN_NOT_OK(CompressPending());
    return raw_->Flush();
  }

  Status Close() override {
    if (closed_) return Status::OK();
    closed_ = true;
    Status st = CompressPending();
    if (st.ok()) st = writer_.Finish();
    Status raw_closed = raw_->Close();
    return st.ok() ? raw_closed : st;
  }

  int64_t position() const override { return position_; }
  const std::string& name() const override { return raw_->name(); }

 private:
  Status CompressPending() {
    if (pending_.empty()) return Status::OK();
    const std::string_view piece = pending_;
    RETURN_NOT_OK(CompressChunk(compression_, level_, {&piece, 1}, &chunk_));
    pending_.clear();
    return writer_.Append(chunk_);
  }

  Compression compression_;
  int level_;
  std::unique_ptr<OutputStream> raw_;
  ChunkedStreamWriter writer_;
  /// Written bytes not yet compressed (less than a chunk).
  std::string pending_;
  /// The last compressed chunk (its buffer is reused).
  CompressedChunk chunk_;
  bool closed_ = false;
  int64_t position_ = 0;
};

}  // namespace

Result<std::unique_ptr<OutputStream>> MakeCompressingStream(Compression c, std::unique_ptr<OutputStream> raw,
                                                            int level) {
  if (raw == nullptr) return Status::InvalidArgument("null output stream");
  RETURN_NOT_OK(DeflateEngineForLevel(level).status());
  if (c == Compression::kNone) return raw;
  return std::unique_ptr<OutputStream>(std::make_unique<ChunkedCompressingStream>(c, std::move(raw), level));
}

}  // namespace recflow
