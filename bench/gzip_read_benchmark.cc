// Reading gzip TFRecords (RecordReader over ISA-L inflate) next to libdeflate whole-buffer and zlib's and ISA-L's bare inflate.
#include <benchmark/benchmark.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <map>
#include <string>

#include "recflow/core/compression.h"
#include "recflow/formats/tfrecord/record_reader.h"
#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

using tfrecord::ReaderOptions;
using tfrecord::RecordReader;

/// Uncompressed bytes of the benchmark file.
constexpr int64_t kRawBytes = int64_t{64} << 20;

/// The TensorFlow-written taxi shard's records (framed), repeated to about 64 MiB and compressed
/// by recflow's writer at `level` (6: zlib's default, what TFX files hold; 2: recflow's default,
/// ISA-L); empty when the shared test data is missing.
const std::string& GzipFile(int level) {
  static std::map<int, std::string> files;
  std::string& file = files[level];
  if (!file.empty() || !testing::HaveTestdata()) return file;
  const std::string path = (testing::TestdataDir() / "tfrecord" / "tfx" / "taxi-train-00000-of-00012.tfrecord.gz").string();
  auto gz = ReadWholeFile(path);
  if (!gz.ok()) return file;
  auto framed = DecompressBuffer(Compression::kGzip, (*gz)->span());
  if (!framed.ok()) return file;
  auto sink = std::make_unique<BufferOutputStream>();
  BufferOutputStream* raw = sink.get();
  auto out = MakeCompressingStream(Compression::kGzip, std::move(sink), level);
  for (int64_t written = 0; written < kRawBytes; written += (*framed)->size()) {
    if (!(*out)->Write((*framed)->data(), (*framed)->size()).ok()) std::abort();
  }
  if (!(*out)->Close().ok()) std::abort();
  file = std::string(raw->Finish()->view());
  return file;
}

/// zlib's inflate of a whole in-memory gzip file as a stream (what recflow read streams with
/// before issue 15).
class ZlibInflateStream final : public InputStream {
 public:
  explicit ZlibInflateStream(const std::string& file) {
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) std::abort();
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(file.data()));
    z_.avail_in = static_cast<uInt>(file.size());
  }
  ~ZlibInflateStream() override { inflateEnd(&z_); }

  Result<int64_t> Read(void* out, int64_t n) override {
    z_.next_out = static_cast<Bytef*>(out);
    z_.avail_out = static_cast<uInt>(n);
    while (z_.avail_out == n && !ended_) {
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) ended_ = true;
      if (rc != Z_OK && rc != Z_STREAM_END) return Status::DataError("zlib inflate failed");
    }
    position_ += n - z_.avail_out;
    return n - z_.avail_out;
  }
  int64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }

 private:
  z_stream z_{};
  bool ended_ = false;
  int64_t position_ = 0;
  std::string name_ = "zlib";
};

/// How ReadGzip gets the records of the gzip file.
enum class Path { kIsalStream, kLibdeflateWhole, kZlibStream };

/// Every record of the file through RecordReader, framing and both CRCs checked: from the
/// compressed buffer (ISA-L inflate into the reader's window, as for every compressed file),
/// from the buffer libdeflate inflates at once first (the path before issue 15 for files up to
/// 256 MiB), or from zlib's inflate as a stream (the path before issue 15 for streams).
void ReadGzip(benchmark::State& state, Path path) {
  const std::string& file = GzipFile(static_cast<int>(state.range(0)));
  if (file.empty()) return state.SkipWithError("no shared testdata");
  const std::shared_ptr<Buffer> buffer = Buffer::FromString(file);
  int64_t raw = 0;
  for (auto _ : state) {
    auto open = [&]() -> Result<std::unique_ptr<RecordReader>> {
      if (path == Path::kIsalStream) return RecordReader::FromBuffer(buffer, "bench.tfrecord.gz", ReaderOptions::Defaults());
      if (path == Path::kLibdeflateWhole) {
        ASSIGN_OR_RETURN(auto inflated, DecompressBuffer(Compression::kGzip, buffer->span()));
        return RecordReader::FromBuffer(inflated, "bench.tfrecord", ReaderOptions::Defaults());
      }
      ReaderOptions options = ReaderOptions::Defaults();
      options.compression_auto = false;
      options.compression = Compression::kNone;
      return RecordReader::FromStream(std::make_unique<ZlibInflateStream>(file), options);
    };
    auto reader = open();
    if (!reader.ok()) return state.SkipWithError(reader.status().ToString().c_str());
    std::string_view record;
    raw = 0;
    for (;;) {
      auto more = (*reader)->Next(&record);
      if (!more.ok()) return state.SkipWithError(more.status().ToString().c_str());
      if (!*more) break;
      raw += static_cast<int64_t>(record.size()) + 16;
      benchmark::DoNotOptimize(record.data());
    }
  }
  state.SetBytesProcessed(state.iterations() * raw);
}

/// recflow: ISA-L inflate as consumed.
void BM_RecflowReadGzip(benchmark::State& state) { ReadGzip(state, Path::kIsalStream); }
/// Peer (the old file path): libdeflate's whole-buffer inflate, then the records in place.
void BM_LibdeflateWholeRead(benchmark::State& state) { ReadGzip(state, Path::kLibdeflateWhole); }
/// Peer (the old stream path): the same reader over zlib's inflate.
void BM_ZlibStreamRead(benchmark::State& state) { ReadGzip(state, Path::kZlibStream); }

/// Peer: zlib's inflate of the same file into a 256 KiB buffer, reused (no framing, no CRC32C).
void BM_ZlibInflate(benchmark::State& state) {
  const std::string& file = GzipFile(static_cast<int>(state.range(0)));
  if (file.empty()) return state.SkipWithError("no shared testdata");
  std::string out(256 << 10, '\0');
  int64_t raw = 0;
  for (auto _ : state) {
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return state.SkipWithError("inflateInit2");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(file.data()));
    z.avail_in = static_cast<uInt>(file.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
      z.next_out = reinterpret_cast<Bytef*>(out.data());
      z.avail_out = static_cast<uInt>(out.size());
      rc = inflate(&z, Z_NO_FLUSH);
      benchmark::DoNotOptimize(out.data());
    }
    raw = static_cast<int64_t>(z.total_out);
    inflateEnd(&z);
    if (rc != Z_STREAM_END) return state.SkipWithError("zlib inflate failed");
  }
  state.SetBytesProcessed(state.iterations() * raw);
}

/// Ceiling: ISA-L's inflate of the same file into a 256 KiB buffer, reused.
void BM_IsalInflate(benchmark::State& state) {
  const std::string& file = GzipFile(static_cast<int>(state.range(0)));
  if (file.empty()) return state.SkipWithError("no shared testdata");
  std::string out(64 << 10, '\0');
  auto inflater = std::make_unique<inflate_state>();
  int64_t raw = 0;
  for (auto _ : state) {
    isal_inflate_init(inflater.get());
    inflater->crc_flag = ISAL_GZIP;
    inflater->next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(file.data()));
    inflater->avail_in = static_cast<uint32_t>(file.size());
    while (inflater->block_state != ISAL_BLOCK_FINISH) {
      inflater->next_out = reinterpret_cast<uint8_t*>(out.data());
      inflater->avail_out = static_cast<uint32_t>(out.size());
      if (isal_inflate(inflater.get()) < 0) return state.SkipWithError("ISA-L inflate failed");
      benchmark::DoNotOptimize(out.data());
    }
    raw = inflater->total_out;
  }
  state.SetBytesProcessed(state.iterations() * raw);
}

// Compressed by zlib level 6 (as TFX writes) and by recflow's default (ISA-L level 2).
BENCHMARK(BM_RecflowReadGzip)->ArgName("level")->Arg(6)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LibdeflateWholeRead)->ArgName("level")->Arg(6)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZlibStreamRead)->ArgName("level")->Arg(6)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZlibInflate)->ArgName("level")->Arg(6)->Arg(2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IsalInflate)->ArgName("level")->Arg(6)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace recflow
