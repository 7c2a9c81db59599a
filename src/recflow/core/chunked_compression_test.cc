// Tests for chunked GZIP/ZLIB: joined chunks form one standard stream that every reader accepts.
#include "recflow/core/chunked_compression.h"

#include <gtest/gtest.h>
#include <libdeflate.h>
#include <zlib.h>

#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "recflow/testing/failing_output.h"
#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

using testing::FailingOutputStream;

std::span<const uint8_t> Bytes(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

/// Record-like bytes: short field names, small numbers and an occasional random byte.
std::string SampleData(size_t n, uint32_t seed) {
  static const char* kTokens[] = {"label=", "user_id=", "country=DE;", "tags=a,b;", "\n"};
  std::mt19937 rng(seed);
  std::string s;
  while (s.size() < n) {
    s += kTokens[rng() % 5];
    s += std::to_string(rng() % 1000);
    if (rng() % 4 == 0) s += static_cast<char>(rng());
  }
  s.resize(n);
  return s;
}

/// Compresses one chunk given as up to three pieces (its thirds), failing the test on error.
CompressedChunk Chunk(Compression c, std::string_view data, int level = -1) {
  const size_t third = data.size() / 3;
  const std::string_view pieces[] = {data.substr(0, third), data.substr(third, third), data.substr(2 * third)};
  CompressedChunk chunk;
  EXPECT_TRUE(CompressChunk(c, level, pieces, &chunk).ok());
  return chunk;
}

/// `data` cut into chunks of `chunk_size` bytes (the last may be shorter).
std::vector<std::string_view> Split(std::string_view data, size_t chunk_size) {
  std::vector<std::string_view> chunks;
  for (size_t pos = 0; pos < data.size(); pos += chunk_size) chunks.push_back(data.substr(pos, chunk_size));
  return chunks;
}

/// Writes `chunks` (already compressed) through a ChunkedStreamWriter into memory.
std::string Join(Compression c, const std::vector<CompressedChunk>& chunks, int level = -1) {
  BufferOutputStream sink;
  ChunkedStreamWriter writer(c, &sink, level);
  int64_t raw = 0;
  for (const CompressedChunk& chunk : chunks) {
    EXPECT_TRUE(writer.Append(chunk).ok());
    raw += chunk.raw_size;
  }
  EXPECT_TRUE(writer.Finish().ok());
  EXPECT_EQ(writer.raw_bytes(), raw);
  EXPECT_EQ(writer.written_bytes(), sink.position());
  return std::string(sink.Finish()->view());
}

/// Compresses `chunks` one by one on this thread and joins them.
std::string Compress(Compression c, const std::vector<std::string_view>& chunks, int level = -1) {
  std::vector<CompressedChunk> compressed;
  for (std::string_view chunk : chunks) compressed.push_back(Chunk(c, chunk, level));
  return Join(c, compressed, level);
}

/// Inflates with zlib, requiring exactly one gzip member / zlib stream that ends exactly at the
/// end of `compressed` and holds `expected`.
::testing::AssertionResult InflatesToExactlyOneStream(Compression c, std::string_view compressed,
                                                      std::string_view expected) {
  z_stream z{};
  if (inflateInit2(&z, c == Compression::kGzip ? 15 + 16 : 15) != Z_OK) {
    return ::testing::AssertionFailure() << "inflateInit2";
  }
  std::string out(expected.size() + 1, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  z.avail_in = static_cast<uInt>(compressed.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  const uInt left = z.avail_in;
  out.resize(out.size() - z.avail_out);
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return ::testing::AssertionFailure() << "inflate returned " << rc;
  if (left != 0) return ::testing::AssertionFailure() << left << " bytes after the end of the stream";
  if (out != expected) return ::testing::AssertionFailure() << "inflated bytes differ";
  return ::testing::AssertionSuccess();
}

std::string DecompressWithRecflow(Compression c, std::string_view compressed) {
  auto r = DecompressBuffer(c, Bytes(compressed));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::string((*r)->view()) : std::string();
}

constexpr Compression kCodecs[] = {Compression::kGzip, Compression::kZlib};

TEST(ChunkedCompressionTest, RoundTripsThroughRecflowAndZlib) {
  const std::string data = SampleData(3'000'000, 1);
  for (Compression c : kCodecs) {
    for (size_t chunk_size : {size_t{1} << 20, size_t{100'000}, size_t{4'000'000}}) {
      SCOPED_TRACE(std::string(CompressionName(c)) + " chunk " + std::to_string(chunk_size));
      const std::string compressed = Compress(c, Split(data, chunk_size));
      EXPECT_EQ(DecompressWithRecflow(c, compressed), data);
      EXPECT_TRUE(InflatesToExactlyOneStream(c, compressed, data));
      EXPECT_LT(compressed.size(), data.size() / 2);
    }
  }
}

TEST(ChunkedCompressionTest, SystemGzipReadsOneValidMember) {
  if (std::system("command -v gzip > /dev/null 2>&1") != 0) GTEST_SKIP() << "no gzip on PATH";
  testing::ScratchDir dir;
  const std::string data = SampleData(2'500'000, 2);
  for (bool empty : {false, true}) {
    const std::string path = dir.File(empty ? "empty.gz" : "data.gz");
    const std::string plain = dir.File(empty ? "empty" : "data");
    auto file = FileOutputStream::Open(path);
    ASSERT_TRUE(file.ok());
    ChunkedStreamWriter writer(Compression::kGzip, file->get(), 9);
    if (!empty) {
      for (std::string_view chunk : Split(data, 1 << 20)) ASSERT_TRUE(writer.Append(Chunk(Compression::kGzip, chunk, 9)).ok());
    }
    ASSERT_TRUE(writer.Finish().ok());
    ASSERT_TRUE((*file)->Close().ok());
    EXPECT_EQ(std::system(("gzip -t '" + path + "'").c_str()), 0);
    ASSERT_EQ(std::system(("gzip -dc '" + path + "' > '" + plain + "'").c_str()), 0);
    auto read = ReadWholeFile(plain);
    ASSERT_TRUE(read.ok());
    EXPECT_EQ((*read)->view(), empty ? std::string_view() : std::string_view(data));
  }
}

TEST(ChunkedCompressionTest, EmptyStreamIsValid) {
  const std::string gzip = Join(Compression::kGzip, {});
  EXPECT_EQ(gzip, std::string("\x1f\x8b\x08\0\0\0\0\0\0\xff\x03\0\0\0\0\0\0\0\0\0", 20));
  const std::string zlib = Join(Compression::kZlib, {});
  EXPECT_EQ(zlib, std::string("\x78\x5e\x03\0\0\0\0\x01", 8));  // FLEVEL 1, as zlib writes for level 2
  for (Compression c : kCodecs) {
    const std::string compressed = c == Compression::kGzip ? gzip : zlib;
    EXPECT_EQ(DecompressWithRecflow(c, compressed), "");
    EXPECT_TRUE(InflatesToExactlyOneStream(c, compressed, ""));
  }
}

TEST(ChunkedCompressionTest, ZeroLengthChunksAndPieces) {
  const std::string data = SampleData(5000, 3);
  const std::string_view view = data;
  for (Compression c : kCodecs) {
    CompressedChunk empty;
    ASSERT_TRUE(CompressChunk(c, -1, {}, &empty).ok());
    EXPECT_TRUE(empty.bytes.empty());
    EXPECT_EQ(empty.raw_size, 0);
    const std::string_view sparse[] = {"", view.substr(0, 10), "", "", view.substr(10)};
    CompressedChunk full;
    ASSERT_TRUE(CompressChunk(c, -1, sparse, &full).ok());
    const std::string compressed = Join(c, {empty, full, empty, Chunk(c, ""), empty});
    EXPECT_EQ(DecompressWithRecflow(c, compressed), data);
    EXPECT_TRUE(InflatesToExactlyOneStream(c, compressed, data));
  }
}

TEST(ChunkedCompressionTest, ManySmallChunks) {
  const std::string data = SampleData(40'000, 4);
  std::mt19937 rng(5);
  std::vector<std::string_view> chunks;
  for (size_t pos = 0; pos < data.size();) {
    const size_t n = std::min<size_t>(rng() % 60, data.size() - pos);
    chunks.push_back(std::string_view(data).substr(pos, n));
    pos += n;
  }
  ASSERT_GT(chunks.size(), 1000u);
  for (Compression c : kCodecs) {
    const std::string compressed = Compress(c, chunks);
    EXPECT_EQ(DecompressWithRecflow(c, compressed), data);
    EXPECT_TRUE(InflatesToExactlyOneStream(c, compressed, data));
  }
}

TEST(ChunkedCompressionTest, DeterministicRegardlessOfThreadHistory) {
  const std::string data = SampleData(300'000, 6);
  // Levels 1 and 2 compress with ISA-L, 6 with zlib.
  for (int level : {1, 2, 6}) {
    for (Compression c : kCodecs) {
      SCOPED_TRACE("level " + std::to_string(level));
      const CompressedChunk first = Chunk(c, data, level);
      // The same thread's states, after other levels and other data, give the same bytes.
      (void)Chunk(c, SampleData(70'000, 7), 9);
      (void)Chunk(c, SampleData(70'000, 8), 0);
      (void)Chunk(c, SampleData(70'000, 9), 1);
      (void)Chunk(c, SampleData(70'000, 10), 2);
      (void)Chunk(c, SampleData(70'000, 11), level);
      EXPECT_EQ(Chunk(c, data, level).bytes, first.bytes);
      // A fresh thread's fresh state too.
      CompressedChunk fresh;
      std::thread([&] { fresh = Chunk(c, data, level); }).join();
      EXPECT_EQ(fresh.bytes, first.bytes);
      EXPECT_EQ(fresh.check, first.check);
      const auto chunks = Split(data, 50'000);
      EXPECT_EQ(Compress(c, chunks, level), Compress(c, chunks, level));
    }
  }
}

/// One raw-deflate chunk made by zlib itself at `level`, sync-flushed as CompressChunk ends one.
std::string ZlibRawChunk(std::string_view data, int level) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, data.size()) + 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_SYNC_FLUSH), Z_OK);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

TEST(ChunkedCompressionTest, EachLevelUsesItsEngine) {
  const std::string data = SampleData(200'000, 13);
  for (int level = -1; level <= 9; ++level) {
    SCOPED_TRACE("level " + std::to_string(level));
    auto engine = DeflateEngineForLevel(level);
    ASSERT_TRUE(engine.ok());
    const bool isal = level == -1 || level == 1 || level == 2;
    EXPECT_EQ(engine->library, isal ? DeflateLibrary::kIsal : DeflateLibrary::kZlib);
    EXPECT_EQ(engine->level, level == -1 ? kDefaultCompressionLevel : level);
    // zlib's levels give zlib's own bytes; ISA-L's give other bytes of the same stream.
    const std::string zlib_bytes = ZlibRawChunk(data, engine->level);
    EXPECT_EQ(Chunk(Compression::kGzip, data, level).bytes == zlib_bytes, !isal);
  }
  EXPECT_EQ(DeflateEngineForLevel(10).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(DeflateEngineForLevel(-2).status().code(), StatusCode::kInvalidArgument);
}

TEST(ChunkedCompressionTest, ChunksCompressedOnSeveralThreadsJoin) {
  const std::string data = SampleData(2'000'000, 10);
  const auto pieces = Split(data, 64 << 10);
  constexpr size_t kThreads = 4;
  for (Compression c : kCodecs) {
    std::vector<CompressedChunk> chunks(pieces.size());
    std::vector<std::thread> threads;
    for (size_t t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (size_t i = t; i < pieces.size(); i += kThreads) chunks[i] = Chunk(c, pieces[i]);
      });
    }
    for (std::thread& thread : threads) thread.join();
    const std::string compressed = Join(c, chunks);
    EXPECT_EQ(compressed, Compress(c, pieces));
    EXPECT_EQ(DecompressWithRecflow(c, compressed), data);
    EXPECT_TRUE(InflatesToExactlyOneStream(c, compressed, data));
  }
}

TEST(ChunkedCompressionTest, EveryLevelAndItsHeader) {
  const std::string data = SampleData(200'000, 11);
  for (int level = -1; level <= 9; ++level) {
    SCOPED_TRACE("level " + std::to_string(level));
    const auto chunks = Split(data, 70'000);
    const std::string gzip = Compress(Compression::kGzip, chunks, level);
    EXPECT_TRUE(InflatesToExactlyOneStream(Compression::kGzip, gzip, data));
    EXPECT_EQ(gzip.substr(0, 8), std::string("\x1f\x8b\x08\0\0\0\0\0", 8));
    EXPECT_EQ(gzip[8], level == 9 ? 2 : level == 0 || level == 1 ? 4 : 0);
    EXPECT_EQ(static_cast<uint8_t>(gzip[9]), 0xff);

    const std::string zlib = Compress(Compression::kZlib, chunks, level);
    EXPECT_TRUE(InflatesToExactlyOneStream(Compression::kZlib, zlib, data));
    const auto cmf = static_cast<uint8_t>(zlib[0]), flg = static_cast<uint8_t>(zlib[1]);
    EXPECT_EQ(cmf, 0x78);
    EXPECT_EQ((cmf * 256 + flg) % 31, 0);
    EXPECT_EQ(flg & 0x20, 0);  // no preset dictionary
    const int effective = level == -1 ? kDefaultCompressionLevel : level;
    EXPECT_EQ(flg >> 6, effective < 2 ? 0 : effective < 6 ? 1 : effective == 6 ? 2 : 3);
  }
}

TEST(ChunkedCompressionTest, StoredLevelSpansManyBlocks) {
  std::string data(300'000, '\0');
  std::mt19937 rng(12);
  for (char& ch : data) ch = static_cast<char>(rng());
  for (Compression c : kCodecs) {
    const std::string compressed = Compress(c, Split(data, 200'000), 0);
    EXPECT_TRUE(InflatesToExactlyOneStream(c, compressed, data));
    EXPECT_EQ(DecompressWithRecflow(c, compressed), data);
  }
}

TEST(ChunkedCompressionTest, RejectsBadLevelsAndMismatchedChunks) {
  CompressedChunk chunk;
  EXPECT_EQ(CompressChunk(Compression::kGzip, 10, {}, &chunk).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(CompressChunk(Compression::kZlib, -2, {}, &chunk).code(), StatusCode::kInvalidArgument);

  BufferOutputStream sink;
  ChunkedStreamWriter bad_level(Compression::kGzip, &sink, 12);
  EXPECT_EQ(bad_level.Finish().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(sink.position(), 0);

  ChunkedStreamWriter zlib(Compression::kZlib, &sink);
  EXPECT_EQ(zlib.Append(Chunk(Compression::kGzip, "abc")).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(zlib.Append(Chunk(Compression::kZlib, "abc")).ok());
  EXPECT_TRUE(zlib.Finish().ok());
  EXPECT_TRUE(InflatesToExactlyOneStream(Compression::kZlib, sink.Finish()->view(), "abc"));
}

TEST(ChunkedCompressionTest, AppendAfterFinishIsAnErrorAndFinishIsIdempotent) {
  BufferOutputStream sink;
  ChunkedStreamWriter writer(Compression::kGzip, &sink);
  ASSERT_TRUE(writer.Append(Chunk(Compression::kGzip, "hello")).ok());
  ASSERT_TRUE(writer.Finish().ok());
  const int64_t size = sink.position();
  EXPECT_TRUE(writer.Finish().ok());
  EXPECT_EQ(writer.Append(Chunk(Compression::kGzip, "more")).code(), StatusCode::kIOError);
  EXPECT_EQ(sink.position(), size);
  EXPECT_EQ(DecompressWithRecflow(Compression::kGzip, sink.Finish()->view()), "hello");
}

TEST(ChunkedCompressionTest, NoneWritesTheBytesAsTheyAre) {
  const std::string_view pieces[] = {"ab", "", "cd"};
  CompressedChunk chunk;
  ASSERT_TRUE(CompressChunk(Compression::kNone, -1, pieces, &chunk).ok());
  EXPECT_EQ(chunk.bytes, "abcd");
  EXPECT_EQ(chunk.raw_size, 4);
  EXPECT_EQ(chunk.check, 0u);
  EXPECT_EQ(Join(Compression::kNone, {chunk, Chunk(Compression::kNone, "ef")}), "abcdef");
  EXPECT_EQ(Join(Compression::kNone, {}), "");
}

TEST(ChunkedCompressionTest, OutputErrorsPropagateAndStick) {
  const CompressedChunk chunk = Chunk(Compression::kGzip, SampleData(10'000, 13));
  {
    FailingOutputStream out(5);  // the header does not fit
    ChunkedStreamWriter writer(Compression::kGzip, &out);
    EXPECT_EQ(writer.Append(chunk).code(), StatusCode::kIOError);
    EXPECT_EQ(writer.Append(chunk).code(), StatusCode::kIOError);
    EXPECT_EQ(writer.Finish().code(), StatusCode::kIOError);
    EXPECT_EQ(writer.Finish().code(), StatusCode::kIOError);
  }
  {
    FailingOutputStream out(10 + static_cast<int64_t>(chunk.bytes.size()));  // the trailer does not fit
    ChunkedStreamWriter writer(Compression::kGzip, &out);
    EXPECT_TRUE(writer.Append(chunk).ok());
    EXPECT_EQ(writer.Finish().code(), StatusCode::kIOError);
    EXPECT_EQ(writer.Finish().code(), StatusCode::kIOError);
    EXPECT_EQ(writer.written_bytes(), out.position());
  }
}

/// The check of `n` zero bytes continued from `check`, computed the slow, obvious way.
uint32_t ExtendOverZeros(Compression c, uint32_t check, int64_t n) {
  const std::string zeros(1 << 20, '\0');
  for (int64_t left = n; left > 0; left -= static_cast<int64_t>(zeros.size())) {
    const size_t take = static_cast<size_t>(std::min<int64_t>(left, static_cast<int64_t>(zeros.size())));
    check = c == Compression::kGzip ? libdeflate_crc32(check, zeros.data(), take)
                                    : libdeflate_adler32(check, zeros.data(), take);
  }
  return check;
}

uint32_t LoadLittleEndian32(std::string_view bytes) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(bytes[static_cast<size_t>(i)]);
  return v;
}

// Only the trailer is checked: the synthetic chunk claims 4 GiB + 7 zero bytes it does not hold.
TEST(ChunkedCompressionTest, TrailerCombinesChecksPastFourGiB) {
  constexpr int64_t kHuge = (int64_t{1} << 32) + 7;
  for (Compression c : kCodecs) {
    const CompressedChunk small = Chunk(c, "abc");
    CompressedChunk huge;
    huge.compression = c;
    huge.raw_size = kHuge;
    huge.check = ExtendOverZeros(c, c == Compression::kZlib ? 1 : 0, kHuge);
    const std::string out = Join(c, {small, huge});
    const uint32_t expected = ExtendOverZeros(c, small.check, kHuge);
    if (c == Compression::kGzip) {
      EXPECT_EQ(LoadLittleEndian32(out.substr(out.size() - 8, 4)), expected);
      EXPECT_EQ(LoadLittleEndian32(out.substr(out.size() - 4)), 10u);  // (3 + 2^32 + 7) mod 2^32
    } else {
      const std::string_view tail = std::string_view(out).substr(out.size() - 4);
      EXPECT_EQ(LoadLittleEndian32(std::string(tail.rbegin(), tail.rend())), expected);
    }
  }
}

}  // namespace
}  // namespace recflow
