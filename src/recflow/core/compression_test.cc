// Tests for GZIP/ZLIB detection, streaming and whole-buffer round trips, and corrupt input.
#include "recflow/core/compression.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

std::span<const uint8_t> Bytes(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

/// Compressible but not trivial: words drawn from a small vocabulary plus some random bytes.
std::string SampleText(size_t n, uint32_t seed) {
  static const char* kWords[] = {"record ", "feature ", "int64_list ", "float_list ", "bytes ", "\n"};
  std::mt19937 rng(seed);
  std::string s;
  while (s.size() < n) {
    s += kWords[rng() % 6];
    if (rng() % 8 == 0) s += static_cast<char>(rng());
  }
  s.resize(n);
  return s;
}

std::string CompressStreaming(Compression c, std::string_view data, size_t piece = 1000) {
  auto sink = std::make_unique<BufferOutputStream>();
  BufferOutputStream* raw = sink.get();
  auto out = MakeCompressingStream(c, std::move(sink)).ValueOrDie();
  for (size_t pos = 0; pos < data.size(); pos += piece) {
    EXPECT_TRUE(out->Write(data.data() + pos, static_cast<int64_t>(std::min(piece, data.size() - pos))).ok());
  }
  EXPECT_EQ(out->position(), static_cast<int64_t>(data.size()));
  EXPECT_TRUE(out->Close().ok());
  EXPECT_TRUE(out->Close().ok());
  return std::string(raw->Finish()->view());
}

Result<std::string> DecompressStreaming(Compression c, std::string compressed, size_t piece = 777) {
  auto in = std::make_unique<BufferInputStream>(Buffer::FromString(std::move(compressed)), "test.gz");
  ASSIGN_OR_RETURN(auto stream, MakeDecompressingStream(c, std::move(in)));
  std::string out, chunk(piece, '\0');
  for (;;) {
    ASSIGN_OR_RETURN(const int64_t got, stream->Read(chunk.data(), static_cast<int64_t>(piece)));
    if (got == 0) break;
    out.append(chunk.data(), static_cast<size_t>(got));
  }
  return out;
}

std::string Whole(const Result<std::shared_ptr<Buffer>>& r) { return std::string((*r)->view()); }

TEST(CompressionTest, NamesSuffixesAndMagic) {
  EXPECT_EQ(CompressionName(Compression::kGzip), "gzip");
  EXPECT_EQ(*ParseCompression("GZ"), Compression::kGzip);
  EXPECT_EQ(*ParseCompression("Zlib"), Compression::kZlib);
  EXPECT_EQ(*ParseCompression(""), Compression::kNone);
  EXPECT_EQ(ParseCompression("zstd").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(CompressionFromSuffix("a/b.tfrecord.gz"), Compression::kGzip);
  EXPECT_EQ(CompressionFromSuffix("b.zz"), Compression::kZlib);
  EXPECT_EQ(CompressionFromSuffix("b.zlib"), Compression::kZlib);
  EXPECT_EQ(CompressionFromSuffix("b.tfrecord"), Compression::kNone);

  const std::string gz = CompressStreaming(Compression::kGzip, "hello");
  const std::string zz = CompressStreaming(Compression::kZlib, "hello");
  EXPECT_TRUE(LooksLikeGzip(Bytes(gz)));
  EXPECT_FALSE(LooksLikeGzip(Bytes(zz)));
  EXPECT_TRUE(LooksLikeZlib(Bytes(zz)));
  EXPECT_FALSE(LooksLikeZlib(Bytes(gz)));
  EXPECT_FALSE(LooksLikeZlib(Bytes("hello")));
  EXPECT_FALSE(LooksLikeGzip(Bytes("\x1f")));
}

TEST(CompressionTest, RoundTripsBothCodecsStreamingAndWhole) {
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{5000}, size_t{3} << 20}) {
      SCOPED_TRACE(std::string(CompressionName(c)) + " " + std::to_string(n));
      const std::string data = SampleText(n, static_cast<uint32_t>(n));
      const std::string streamed = CompressStreaming(c, data, 70000);
      const auto whole = CompressBuffer(c, Bytes(data));
      ASSERT_TRUE(whole.ok());
      // Each compressor's output reads back through both decompressors.
      for (const std::string& compressed : {streamed, std::string((*whole)->view())}) {
        EXPECT_EQ(*DecompressStreaming(c, compressed), data);
        EXPECT_EQ(Whole(DecompressBuffer(c, Bytes(compressed))), data);
      }
    }
  }
}

TEST(CompressionTest, NoneIsPassThrough) {
  auto sink = std::make_unique<BufferOutputStream>();
  OutputStream* raw = sink.get();
  EXPECT_EQ(MakeCompressingStream(Compression::kNone, std::move(sink)).ValueOrDie().get(), raw);
  EXPECT_EQ(Whole(DecompressBuffer(Compression::kNone, Bytes("abc"))), "abc");
  EXPECT_EQ(Whole(CompressBuffer(Compression::kNone, Bytes("abc"))), "abc");
}

TEST(CompressionTest, FlushMakesWrittenBytesDecodable) {
  auto sink = std::make_unique<BufferOutputStream>();
  BufferOutputStream* raw = sink.get();
  auto out = MakeCompressingStream(Compression::kGzip, std::move(sink)).ValueOrDie();
  ASSERT_TRUE(out->Write("first part", 10).ok());
  ASSERT_TRUE(out->Flush().ok());
  std::string partial(raw->Finish()->view());
  auto raw_in = std::make_unique<BufferInputStream>(Buffer::FromString(partial));
  auto in = MakeDecompressingStream(Compression::kGzip, std::move(raw_in)).ValueOrDie();
  char buf[10];
  EXPECT_EQ(*ReadFully(*in, buf, 10), 10);
  EXPECT_EQ(std::string(buf, 10), "first part");
  EXPECT_TRUE(out->Close().ok());
}

TEST(CompressionTest, ConcatenatedGzipMembersReadAsOneStream) {
  const std::string a = SampleText(100000, 1), b = SampleText(3000, 2);
  const std::string both = CompressStreaming(Compression::kGzip, a) + CompressStreaming(Compression::kGzip, b);
  EXPECT_EQ(*DecompressStreaming(Compression::kGzip, both), a + b);
  EXPECT_EQ(*DecompressStreaming(Compression::kGzip, both, 1), a + b);
  EXPECT_EQ(Whole(DecompressBuffer(Compression::kGzip, Bytes(both))), a + b);
  // An empty member in the middle is still a member.
  const std::string three = CompressStreaming(Compression::kGzip, a) + CompressStreaming(Compression::kGzip, "") +
                            CompressStreaming(Compression::kGzip, b);
  EXPECT_EQ(*DecompressStreaming(Compression::kGzip, three), a + b);
  EXPECT_EQ(Whole(DecompressBuffer(Compression::kGzip, Bytes(three))), a + b);
}

TEST(CompressionTest, ReadsWhatTheGzipToolWrites) {
  if (std::system("command -v gzip >/dev/null 2>&1") != 0) GTEST_SKIP() << "no gzip command";
  testing::ScratchDir dir;
  const std::string data = SampleText(200000, 9);
  { std::ofstream(dir.File("x"), std::ios::binary) << data; }
  const std::string cmd = "gzip -9 -c " + dir.File("x") + " > " + dir.File("x.gz") + " && gzip -1 -c " +
                          dir.File("x") + " >> " + dir.File("x.gz");
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const auto file = *ReadWholeFile(dir.File("x.gz"));
  EXPECT_EQ(Whole(DecompressBuffer(Compression::kGzip, file->span())), data + data);
  EXPECT_EQ(*DecompressStreaming(Compression::kGzip, std::string(file->view())), data + data);
}

TEST(CompressionTest, TruncatedInputIsADataErrorWithOffset) {
  const std::string data = SampleText(50000, 4);
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    const std::string full = CompressStreaming(c, data);
    const std::string cut = full.substr(0, full.size() - 10);
    auto streamed = DecompressStreaming(c, cut);
    ASSERT_FALSE(streamed.ok());
    EXPECT_EQ(streamed.status().code(), StatusCode::kDataError);
    EXPECT_EQ(streamed.status().context().file, "test.gz");
    EXPECT_NE(streamed.status().message().find("truncated " + std::string(CompressionName(c)) + " stream"),
              std::string::npos);
    EXPECT_NE(streamed.status().message().find("compressed byte offset " + std::to_string(cut.size())),
              std::string::npos)
        << streamed.status().ToString();
    EXPECT_EQ(DecompressBuffer(c, Bytes(cut)).status().code(), StatusCode::kDataError);
  }
}

TEST(CompressionTest, CorruptAndTrailingBytesAreDataErrors) {
  const std::string data = SampleText(50000, 5);
  const std::string gz = CompressStreaming(Compression::kGzip, data);
  std::string corrupt = gz;
  for (size_t i = 100; i < 200; ++i) corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
  EXPECT_EQ(DecompressStreaming(Compression::kGzip, corrupt).status().code(), StatusCode::kDataError);
  EXPECT_EQ(DecompressBuffer(Compression::kGzip, Bytes(corrupt)).status().code(), StatusCode::kDataError);

  const std::string garbage = gz + "garbage";
  auto streamed = DecompressStreaming(Compression::kGzip, garbage);
  ASSERT_FALSE(streamed.ok());
  EXPECT_NE(streamed.status().message().find("trailing garbage"), std::string::npos);
  auto whole = DecompressBuffer(Compression::kGzip, Bytes(garbage));
  ASSERT_FALSE(whole.ok());
  EXPECT_NE(whole.status().message().find("offset " + std::to_string(gz.size())), std::string::npos);

  const std::string zz = CompressStreaming(Compression::kZlib, data) + "x";
  EXPECT_EQ(DecompressStreaming(Compression::kZlib, zz).status().code(), StatusCode::kDataError);
  EXPECT_EQ(DecompressBuffer(Compression::kZlib, Bytes(zz)).status().code(), StatusCode::kDataError);
  EXPECT_EQ(DecompressBuffer(Compression::kGzip, Bytes("not gzip at all, long enough")).status().code(),
            StatusCode::kDataError);
}

/// The error of streaming `bytes` through the inflate, or OK.
Status StreamingError(Compression c, std::string bytes, size_t piece) {
  return DecompressStreaming(c, std::move(bytes), piece).status();
}

TEST(CompressionTest, HostileStreamsNameTheFileAndTheCompressedOffset) {
  const std::string data = SampleText(40000, 12);
  const std::string gz = CompressStreaming(Compression::kGzip, data);
  const std::string zz = CompressStreaming(Compression::kZlib, data);
  std::string bad_crc = gz, bad_size = gz;
  bad_crc[gz.size() - 6] = static_cast<char>(bad_crc[gz.size() - 6] ^ 1);
  bad_size[gz.size() - 2] = static_cast<char>(bad_size[gz.size() - 2] ^ 1);
  const std::string empty_member = CompressStreaming(Compression::kGzip, "");
  const struct {
    Compression codec;
    std::string bytes;
    std::string message;
  } cases[] = {
      {Compression::kGzip, gz + "garbage", "trailing garbage after gzip member at compressed byte offset " +
                                               std::to_string(gz.size())},
      {Compression::kGzip, gz + empty_member + "\x1f", "trailing garbage after gzip member at compressed byte offset " +
                                                         std::to_string(gz.size() + empty_member.size())},
      {Compression::kZlib, zz + "x", "trailing data after the zlib stream at compressed byte offset " +
                                         std::to_string(zz.size())},
      {Compression::kGzip, bad_crc, "corrupt gzip data: incorrect data check"},
      {Compression::kGzip, bad_size, "corrupt gzip data: incorrect data check"},
      {Compression::kGzip, gz.substr(0, 5), "truncated gzip stream at compressed byte offset 5"},
      {Compression::kGzip, gz + gz.substr(0, 20), "truncated gzip stream at compressed byte offset " +
                                                     std::to_string(gz.size() + 20)},
      {Compression::kZlib, "\x78\x9c", "truncated zlib stream at compressed byte offset 2"},
      {Compression::kZlib, "\x78\xbb" + zz.substr(2), "corrupt zlib data: needs a preset dictionary"},
  };
  for (const auto& test : cases) {
    for (size_t piece : {size_t{1}, size_t{777}, size_t{1} << 20}) {
      const Status st = StreamingError(test.codec, test.bytes, piece);
      SCOPED_TRACE(test.message + ", reads of " + std::to_string(piece));
      EXPECT_EQ(st.code(), StatusCode::kDataError);
      EXPECT_EQ(st.context().file, "test.gz");
      EXPECT_NE(st.message().find(test.message), std::string::npos) << st.ToString();
    }
  }
}

TEST(CompressionTest, BytesInflatedBeforeABadTrailerAreReturnedFirst) {
  const std::string data = SampleText(3000, 9);
  std::string gz = CompressStreaming(Compression::kGzip, data);
  gz[gz.size() - 6] = static_cast<char>(gz[gz.size() - 6] ^ 1);  // the CRC-32 in the trailer
  auto stream = MakeDecompressingStream(Compression::kGzip,
                                        std::make_unique<BufferInputStream>(Buffer::FromString(gz), "t.gz"));
  ASSERT_TRUE(stream.ok());
  std::string out(data.size() + 100, '\0');
  auto got = (*stream)->Read(out.data(), static_cast<int64_t>(out.size()));
  ASSERT_TRUE(got.ok()) << got.status().ToString();  // one zlib call inflated all and met the bad check
  EXPECT_EQ(out.substr(0, static_cast<size_t>(*got)), data);
  auto next = (*stream)->Read(out.data(), 10);
  ASSERT_FALSE(next.ok());
  EXPECT_NE(next.status().ToString().find("t.gz: corrupt gzip data: incorrect data check"), std::string::npos)
      << next.status().ToString();
  EXPECT_EQ((*stream)->Read(out.data(), 10).status().ToString(), next.status().ToString());  // sticky
}

TEST(CompressionTest, EmptyInputIsAnEmptyStream) {
  EXPECT_EQ(*DecompressStreaming(Compression::kGzip, ""), "");
  EXPECT_EQ(*DecompressStreaming(Compression::kZlib, ""), "");
  EXPECT_EQ(Whole(DecompressBuffer(Compression::kGzip, {})), "");
  EXPECT_EQ(Whole(DecompressBuffer(Compression::kZlib, {})), "");
}

TEST(CompressionTest, BombGuardStopsAtMaxOutput) {
  const std::string zeros(10 << 20, '\0');
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    const auto bomb = *CompressBuffer(c, Bytes(zeros), 9);
    EXPECT_LT(bomb->size(), 100000);
    auto limited = DecompressBuffer(c, bomb->span(), 1 << 20);
    ASSERT_FALSE(limited.ok());
    EXPECT_EQ(limited.status().code(), StatusCode::kDataError);
    EXPECT_NE(limited.status().message().find("exceeds the limit"), std::string::npos);
    EXPECT_EQ((*DecompressBuffer(c, bomb->span(), 10 << 20))->size(), 10 << 20);
  }
}

TEST(CompressionTest, OpenDecompressedFileChoosesTheCodecBySuffix) {
  testing::ScratchDir dir;
  const std::string text = SampleText(50000, 7);
  const std::pair<const char*, Compression> cases[] = {
      {"plain.txt", Compression::kNone}, {"a.gz", Compression::kGzip}, {"a.zlib", Compression::kZlib}};
  for (const auto& [name, codec] : cases) {
    const std::string path = dir.File(name);
    std::string bytes = codec == Compression::kNone ? text : CompressStreaming(codec, text);
    { std::ofstream(path, std::ios::binary) << bytes; }
    auto in = OpenDecompressedFile(path);
    ASSERT_TRUE(in.ok()) << in.status().ToString();
    std::string out(text.size() + 1, '\0');
    auto n = ReadFully(**in, out.data(), static_cast<int64_t>(out.size()));
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    out.resize(static_cast<size_t>(*n));
    EXPECT_EQ(out, text) << name;
  }
  EXPECT_EQ(OpenDecompressedFile(dir.File("missing.gz")).status().code(), StatusCode::kNotFound);
}

TEST(CompressionTest, RejectsBadLevels) {
  EXPECT_EQ(MakeCompressingStream(Compression::kGzip, std::make_unique<BufferOutputStream>(), 10).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(CompressBuffer(Compression::kGzip, Bytes("x"), 13).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow
