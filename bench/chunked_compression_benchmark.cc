// Chunked GZIP (independent raw-deflate chunks by ISA-L or zlib, 1 or 2 threads) vs one zlib gzip stream vs libdeflate,
// and every level of the three libraries on the writer's 1 MiB chunks.
#include <benchmark/benchmark.h>
#include <libdeflate.h>
#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "recflow/core/chunk_deflaters.h"
#include "recflow/core/chunked_compression.h"
#include "recflow/formats/tfrecord/framing.h"
#include "recflow/testing/wire_writer.h"

namespace recflow {
namespace {

using testing::WireWriter;

/// Uncompressed input of every benchmark.
constexpr size_t kInputSize = size_t{16} << 20;

/// One tf.Example map entry: `name` → Feature with the list message `list` in field `kind`
/// (1 = bytes_list, 2 = float_list, 3 = int64_list).
WireWriter Entry(std::string_view name, uint32_t kind, const WireWriter& list) {
  WireWriter feature;
  feature.MessageField(kind, list);
  WireWriter entry;
  entry.BytesField(1, name).MessageField(2, feature);
  return entry;
}

/// A packed int64 list (Int64List.value) of `values`.
WireWriter Int64s(const std::vector<uint64_t>& values) {
  WireWriter packed;
  for (uint64_t v : values) packed.Varint(v);
  WireWriter list;
  list.BytesField(1, packed);
  return list;
}

/// A deterministic uncompressed TFRecord file of click-log-like tf.Examples (ids, a timestamp,
/// a score, a country, a few tags and a variable-length history of item ids), framed with the
/// real length and data CRCs, cut to `size` bytes.
std::string TfrecordLikeData(size_t size) {
  static const char* kCountries[] = {"DE", "US", "FR", "BR", "IN", "JP", "GB", "NG"};
  static const char* kTags[] = {"sports", "news", "music", "video", "promo", "mobile", "desktop", "organic"};
  std::mt19937_64 rng(2024);
  std::string out;
  uint64_t timestamp = 1'700'000'000'000;
  while (out.size() < size) {
    timestamp += rng() % 5000;
    std::vector<uint64_t> history(rng() % 20);
    for (uint64_t& item : history) item = 100'000 + rng() % 50'000;
    WireWriter tags;
    for (int i = static_cast<int>(rng() % 4); i >= 0; --i) tags.BytesField(1, kTags[rng() % 8]);
    WireWriter country;
    country.BytesField(1, kCountries[rng() % 8]);
    WireWriter score;
    score.PackedFloats(1, {static_cast<float>(rng() % 10'000) / 10'000.0f});
    WireWriter features;
    features.MessageField(1, Entry("user_id", 3, Int64s({rng() % 1'000'000})))
        .MessageField(1, Entry("timestamp_ms", 3, Int64s({timestamp})))
        .MessageField(1, Entry("score", 2, score))
        .MessageField(1, Entry("country", 1, country))
        .MessageField(1, Entry("tags", 1, tags))
        .MessageField(1, Entry("history", 3, Int64s(history)))
        .MessageField(1, Entry("label", 3, Int64s({rng() % 8 == 0 ? 1u : 0u})));
    WireWriter example;
    example.MessageField(1, features);
    const std::string& record = example.bytes();
    uint8_t header[tfrecord::kHeaderSize];
    tfrecord::EncodeHeader(record.size(), header);
    uint8_t footer[tfrecord::kFooterSize];
    tfrecord::EncodeFooter(reinterpret_cast<const uint8_t*>(record.data()), record.size(), footer);
    out.append(reinterpret_cast<const char*>(header), sizeof(header));
    out += record;
    out.append(reinterpret_cast<const char*>(footer), sizeof(footer));
  }
  out.resize(size);
  return out;
}

/// The input of every benchmark: the file named by RECFLOW_BENCH_DEFLATE_INPUT (the TFRecords a
/// convert wrote, say; bench/gzip_convert.py --chunk-levels passes one), else kInputSize bytes of
/// TfrecordLikeData.
const std::string& Input() {
  static const std::string* input = [] {
    const char* path = std::getenv("RECFLOW_BENCH_DEFLATE_INPUT");
    if (path == nullptr) return new std::string(TfrecordLikeData(kInputSize));
    std::ifstream file(path, std::ios::binary);
    return new std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  }();
  return *input;
}

void ReportThroughput(benchmark::State& state, int64_t compressed_size) {
  const auto size = static_cast<int64_t>(Input().size());
  state.SetBytesProcessed(state.iterations() * size);
  state.counters["ratio"] = static_cast<double>(compressed_size) / static_cast<double>(size);
}

/// Compresses `input` in chunks of `chunk_size` bytes with CompressChunk at `level`, chunk i on
/// worker i % `threads` (the calling thread when `threads` is 1), then joins them in order into
/// one gzip member in memory; returns its size.
Result<int64_t> ChunkedGzip(std::string_view input, size_t chunk_size, int threads, int level) {
  std::vector<CompressedChunk> chunks((input.size() + chunk_size - 1) / chunk_size);
  std::vector<Status> statuses(static_cast<size_t>(threads));
  auto work = [&](size_t worker) {
    for (size_t i = worker; i < chunks.size() && statuses[worker].ok(); i += statuses.size()) {
      const std::string_view piece = input.substr(i * chunk_size, chunk_size);
      statuses[worker] = CompressChunk(Compression::kGzip, level, {&piece, 1}, &chunks[i]);
    }
  };
  if (threads == 1) {
    work(0);
  } else {
    std::vector<std::thread> workers;
    for (size_t t = 0; t < statuses.size(); ++t) workers.emplace_back(work, t);
    for (std::thread& worker : workers) worker.join();
  }
  for (const Status& st : statuses) RETURN_NOT_OK(st);
  BufferOutputStream sink;
  ChunkedStreamWriter writer(Compression::kGzip, &sink, level);
  for (const CompressedChunk& chunk : chunks) RETURN_NOT_OK(writer.Append(chunk));
  RETURN_NOT_OK(writer.Finish());
  return writer.written_bytes();
}

/// ChunkedGzip with chunks of state.range(0) bytes on state.range(1) threads at level
/// state.range(2) (-1 and 1..2: ISA-L; 6: zlib).
void BM_ChunkedGzip(benchmark::State& state) {
  int64_t compressed_size = 0;
  for (auto _ : state) {
    auto size = ChunkedGzip(Input(), static_cast<size_t>(state.range(0)), static_cast<int>(state.range(1)),
                            static_cast<int>(state.range(2)));
    if (!size.ok()) {
      state.SkipWithError(size.status().ToString().c_str());
      return;
    }
    compressed_size = *size;
  }
  ReportThroughput(state, compressed_size);
}

/// Peer: one zlib deflate stream over the whole input at level 6 (RecordWriter's gzip path and
/// zlib's default before issue 15).
void BM_ZlibGzipStream(benchmark::State& state) {
  const std::string& input = Input();
  std::string out(input.size() + input.size() / 100 + 1024, '\0');
  int64_t compressed_size = 0;
  for (auto _ : state) {
    z_stream z{};
    if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      return state.SkipWithError("deflateInit2");
    }
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    z.avail_in = static_cast<uInt>(input.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    compressed_size = static_cast<int64_t>(z.total_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END) return state.SkipWithError("zlib deflate did not finish");
  }
  ReportThroughput(state, compressed_size);
}

/// Peer: libdeflate whole-buffer gzip at the same level (6).
void BM_LibdeflateGzip(benchmark::State& state) {
  const std::string& input = Input();
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  int64_t compressed_size = 0;
  for (auto _ : state) {
    auto compressed = CompressBuffer(Compression::kGzip, bytes, 6);
    if (!compressed.ok()) {
      state.SkipWithError(compressed.status().ToString().c_str());
      return;
    }
    compressed_size = (*compressed)->size();
  }
  ReportThroughput(state, compressed_size);
}

/// The deflate libraries a level can be mapped to.
enum DeflateLibraryArg : int64_t { kZlibArg = 0, kIsalArg = 1, kLibdeflateArg = 2 };

/// Raw deflate of each 1 MiB chunk of the input, one thread, by library state.range(0) at its level
/// state.range(1): what each candidate for a `--level` costs in CPU and in size. zlib and ISA-L end
/// each chunk with a sync flush (the writer's own calls); libdeflate's whole-buffer call ends it with
/// a final block, which the writer could only join as one gzip member per chunk.
void BM_DeflateChunks(benchmark::State& state) {
  const std::string& input = Input();
  const auto library = static_cast<DeflateLibraryArg>(state.range(0));
  const int level = static_cast<int>(state.range(1));
  constexpr size_t kChunk = size_t{1} << 20;
  libdeflate_compressor* compressor = library == kLibdeflateArg ? libdeflate_alloc_compressor(level) : nullptr;
  std::string out;
  int64_t compressed_size = 0;
  for (auto _ : state) {
    compressed_size = 0;
    for (size_t pos = 0; pos < input.size(); pos += kChunk) {
      const std::string_view piece = std::string_view(input).substr(pos, kChunk);
      if (library == kLibdeflateArg) {
        out.resize(libdeflate_deflate_compress_bound(compressor, piece.size()));
        const size_t n = libdeflate_deflate_compress(compressor, piece.data(), piece.size(), out.data(), out.size());
        if (n == 0) return state.SkipWithError("libdeflate_deflate_compress");
        compressed_size += static_cast<int64_t>(n);
        continue;
      }
      const Status st = library == kIsalArg ? internal::IsalDeflateChunk(level, {&piece, 1}, &out)
                                            : internal::ZlibDeflateChunk(level, {&piece, 1}, &out);
      if (!st.ok()) return state.SkipWithError(st.ToString().c_str());
      compressed_size += static_cast<int64_t>(out.size());
    }
  }
  if (compressor != nullptr) libdeflate_free_compressor(compressor);
  ReportThroughput(state, compressed_size);
}

BENCHMARK(BM_DeflateChunks)
    ->ArgNames({"library", "level"})
    ->ArgsProduct({{kZlibArg}, {1, 2, 3, 4, 5, 6}})
    ->ArgsProduct({{kIsalArg}, {0, 1, 2, 3}})
    ->ArgsProduct({{kLibdeflateArg}, {1, 2, 3, 4, 5, 6, 7, 8, 9}})
    ->Unit(benchmark::kMillisecond);

// Real time: the two-thread run is about wall-clock time.
BENCHMARK(BM_ChunkedGzip)
    ->ArgNames({"chunk", "threads", "level"})
    ->Args({256 << 10, 1, 6})
    ->Args({1 << 20, 1, 6})
    ->Args({4 << 20, 1, 6})
    ->Args({1 << 20, 2, 6})
    ->Args({1 << 20, 1, 1})
    ->Args({1 << 20, 1, 2})
    ->Args({1 << 20, 2, 2})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ZlibGzipStream)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LibdeflateGzip)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace recflow
