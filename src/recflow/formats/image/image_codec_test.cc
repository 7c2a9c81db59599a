// Tests for the image codecs: sniffing, round trips, DCT scaling, channel options and hostile input.
#include "recflow/formats/image/image_codec.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <string>

#include "recflow/core/io.h"
#include "recflow/formats/image/image_test_util.h"

namespace recflow::image {
namespace {

using testing::MaxAbsDiff;
using testing::SkimageFile;

// A smooth deterministic test pattern (JPEG-friendly), any channel count and sample type.
Image Pattern(int height, int width, int channels, PixelType type = PixelType::kUInt8) {
  Image image = Image::Allocate(height, width, channels, type).ValueOrDie();
  const int64_t n = int64_t{height} * width * channels;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = i % channels, x = (i / channels) % width, y = i / channels / width;
    const int64_t v = (x * 3 + y * 2 + c * 40) % 256;
    if (type == PixelType::kUInt8) image.mutable_samples<uint8_t>()[i] = static_cast<uint8_t>(v);
    if (type == PixelType::kUInt16) image.mutable_samples<uint16_t>()[i] = static_cast<uint16_t>(v * 257 + x);
  }
  return image;
}

Result<Image> Decode(const Buffer& bytes, const DecodeOptions& options = DecodeOptions::Defaults()) {
  return DecodeImage(bytes.span(), options);
}

Result<Image> DecodeFile(const std::string& path, const DecodeOptions& options = DecodeOptions::Defaults()) {
  ASSIGN_OR_RETURN(auto bytes, ReadWholeFile(path));
  return DecodeImage(bytes->span(), options);
}

std::string Mutable(const Buffer& bytes) { return std::string(bytes.view()); }

// Byte offset of the first chunk of `type` in a PNG.
size_t ChunkOffset(const std::string& png, const char* type) {
  size_t pos = 8;
  while (pos + 8 <= png.size()) {
    const uint32_t length = (uint32_t(uint8_t(png[pos])) << 24) | (uint32_t(uint8_t(png[pos + 1])) << 16) |
                            (uint32_t(uint8_t(png[pos + 2])) << 8) | uint32_t(uint8_t(png[pos + 3]));
    if (png.compare(pos + 4, 4, type) == 0) return pos;
    pos += 12 + length;
  }
  return std::string::npos;
}

TEST(ImageCodecTest, SniffsByMagic) {
  const uint8_t jpeg[] = {0xFF, 0xD8, 0xFF, 0xE0};
  const uint8_t png[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  const uint8_t other[] = {'G', 'I', 'F', '8'};
  EXPECT_EQ(Sniff(jpeg), ImageFormat::kJpeg);
  EXPECT_EQ(Sniff(png), ImageFormat::kPng);
  EXPECT_EQ(Sniff(other), ImageFormat::kUnknown);
  EXPECT_EQ(Sniff({png, 7}), ImageFormat::kUnknown);
  auto decoded = DecodeImage(other, DecodeOptions::Defaults());
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), StatusCode::kDataError);
  EXPECT_NE(decoded.status().message().find("neither JPEG"), std::string::npos);
}

TEST(ImageCodecTest, PngRoundTripIsExact) {
  for (PixelType type : {PixelType::kUInt8, PixelType::kUInt16}) {
    for (int channels = 1; channels <= 4; ++channels) {
      for (bool interlaced : {false, true}) {
        SCOPED_TRACE(std::string(PixelTypeName(type)) + " channels " + std::to_string(channels) +
                     (interlaced ? " interlaced" : ""));
        const Image original = Pattern(13, 17, channels, type);
        auto png = EncodePng(original, 6, interlaced);
        ASSERT_TRUE(png.ok()) << png.status().ToString();
        DecodeOptions options;
        options.keep_16bit = true;
        auto decoded = Decode(**png, options);
        ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
        EXPECT_TRUE(decoded->Equals(original));
      }
    }
  }
}

TEST(ImageCodecTest, Png16BitStripsToHighByte) {
  const Image original = Pattern(4, 5, 3, PixelType::kUInt16);
  auto png = EncodePng(original, 1);
  ASSERT_TRUE(png.ok());
  auto decoded = Decode(**png);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_EQ(decoded->pixel_type(), PixelType::kUInt8);
  for (int i = 0; i < 4 * 5 * 3; ++i) EXPECT_EQ(decoded->samples<uint8_t>()[i], original.samples<uint16_t>()[i] >> 8);
}

TEST(ImageCodecTest, JpegRoundTripIsClose) {
  for (int channels : {1, 3}) {
    const Image original = Pattern(32, 48, channels);
    auto jpeg = EncodeJpeg(original, 95);
    ASSERT_TRUE(jpeg.ok()) << jpeg.status().ToString();
    EXPECT_EQ(Sniff((*jpeg)->span()), ImageFormat::kJpeg);
    auto decoded = Decode(**jpeg);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    ASSERT_EQ(decoded->channels(), channels);
    double total = 0;
    const int64_t n = 32 * 48 * channels;
    for (int64_t i = 0; i < n; ++i) {
      total += std::abs(int(decoded->samples<uint8_t>()[i]) - int(original.samples<uint8_t>()[i]));
    }
    EXPECT_LT(total / double(n), 3.0) << "channels " << channels;
  }
}

TEST(ImageCodecTest, EncodeRejectsWhatTheFormatCannotHold) {
  EXPECT_EQ(EncodeJpeg(Pattern(2, 2, 3, PixelType::kUInt16), 90).status().code(), StatusCode::kTypeError);
  EXPECT_EQ(EncodeJpeg(Pattern(2, 2, 2), 90).status().code(), StatusCode::kTypeError);
  EXPECT_EQ(EncodeJpeg(Pattern(2, 2, 3), 0).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodePng(Pattern(2, 2, 1, PixelType::kFloat32), 6).status().code(), StatusCode::kTypeError);
  EXPECT_EQ(EncodePng(Pattern(2, 2, 1), 10).status().code(), StatusCode::kInvalidArgument);
}

TEST(ImageCodecTest, JpegChannelOptions) {
  const std::string path = SkimageFile("rocket.jpg");
  DecodeOptions options;
  auto rgb = DecodeFile(path, options);
  ASSERT_TRUE(rgb.ok()) << rgb.status().ToString();
  EXPECT_EQ(rgb->height(), 427);
  EXPECT_EQ(rgb->width(), 640);
  EXPECT_EQ(rgb->channels(), 3);
  options.channels = 1;
  auto gray = DecodeFile(path, options);
  ASSERT_TRUE(gray.ok());
  EXPECT_EQ(gray->channels(), 1);
  options.channels = 4;
  auto rgba = DecodeFile(path, options);
  ASSERT_TRUE(rgba.ok());
  ASSERT_EQ(rgba->channels(), 4);
  for (int64_t i = 0; i < 427 * 640; ++i) {
    ASSERT_EQ(rgba->samples<uint8_t>()[i * 4 + 3], 255);
    ASSERT_EQ(rgba->samples<uint8_t>()[i * 4], rgb->samples<uint8_t>()[i * 3]);
  }
}

TEST(ImageCodecTest, JpegDctScalingPicksTheSmallestCoveringFactor) {
  const std::string path = SkimageFile("rocket.jpg");  // 640 x 427
  DecodeOptions options;
  options.min_width = 200;
  options.min_height = 100;  // 3/8 → 240 x 161 covers it; 1/4 → 160 wide does not
  auto scaled = DecodeFile(path, options);
  ASSERT_TRUE(scaled.ok()) << scaled.status().ToString();
  EXPECT_EQ(scaled->width(), 240);
  EXPECT_EQ(scaled->height(), 161);
  options.min_width = 0;
  options.min_height = 50;  // 1/8 → 80 x 54
  scaled = DecodeFile(path, options);
  ASSERT_TRUE(scaled.ok());
  EXPECT_EQ(scaled->width(), 80);
  EXPECT_EQ(scaled->height(), 54);
  options.min_height = 5000;  // never upscales
  scaled = DecodeFile(path, options);
  ASSERT_TRUE(scaled.ok());
  EXPECT_EQ(scaled->width(), 640);
}

TEST(ImageCodecTest, PngLayoutsFromRealFiles) {
  struct Case {
    const char* file;
    int height, width, channels;
  };
  const Case cases[] = {
      {"camera.png", 512, 512, 1},          // 8-bit gray
      {"chelsea.png", 300, 451, 3},         // RGB
      {"horse.png", 328, 400, 4},           // RGBA
      {"palette_color.png", 10, 10, 3},     // palette → RGB
      {"foo3x5x4indexed.png", 3, 5, 4},     // palette with tRNS → RGBA
      {"checker_bilevel.png", 10, 10, 1},   // 1-bit gray → 8-bit
  };
  for (const auto& c : cases) {
    auto image = DecodeFile(SkimageFile(c.file));
    ASSERT_TRUE(image.ok()) << c.file << ": " << image.status().ToString();
    EXPECT_EQ(image->height(), c.height) << c.file;
    EXPECT_EQ(image->width(), c.width) << c.file;
    EXPECT_EQ(image->channels(), c.channels) << c.file;
    EXPECT_EQ(image->pixel_type(), PixelType::kUInt8) << c.file;
  }
  auto bilevel = DecodeFile(SkimageFile("checker_bilevel.png"));
  ASSERT_TRUE(bilevel.ok());
  for (int64_t i = 0; i < 100; ++i) {
    const uint8_t v = bilevel->samples<uint8_t>()[i];
    EXPECT_TRUE(v == 0 || v == 255) << int(v);
  }
}

TEST(ImageCodecTest, ConvertsChannelsOnDecode) {
  DecodeOptions options;
  options.channels = 3;
  auto rgb = DecodeFile(SkimageFile("camera.png"), options);
  ASSERT_TRUE(rgb.ok());
  EXPECT_EQ(rgb->channels(), 3);
  options.channels = 1;
  auto gray = DecodeFile(SkimageFile("horse.png"), options);
  ASSERT_TRUE(gray.ok());
  EXPECT_EQ(gray->channels(), 1);
  // Pillow's L = (R·19595 + G·38470 + B·7471 + 0x8000) >> 16.
  Image pixel = Image::Allocate(1, 1, 3, PixelType::kUInt8).ValueOrDie();
  pixel.mutable_samples<uint8_t>()[0] = 200;
  pixel.mutable_samples<uint8_t>()[1] = 100;
  pixel.mutable_samples<uint8_t>()[2] = 50;
  auto luma = ConvertChannels(pixel, 1);
  ASSERT_TRUE(luma.ok());
  EXPECT_EQ(luma->samples<uint8_t>()[0], (200 * 19595 + 100 * 38470 + 50 * 7471 + 0x8000) >> 16);
}

TEST(ImageCodecTest, TruncatedJpegIsADataError) {
  auto image = DecodeFile(SkimageFile("truncated.jpg"));
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.status().code(), StatusCode::kDataError);
  EXPECT_NE(image.status().message().find("JPEG"), std::string::npos) << image.status().ToString();

  // A JPEG cut in the middle of its entropy-coded data.
  auto whole = EncodeJpeg(Pattern(64, 64, 3), 90);
  ASSERT_TRUE(whole.ok());
  const std::string cut = Mutable(**whole).substr(0, (*whole)->size() / 2);
  image = Decode(*Buffer::FromString(cut));
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.status().code(), StatusCode::kDataError);
  EXPECT_NE(image.status().message().find("Premature end"), std::string::npos) << image.status().ToString();
  // Tolerated on request: the missing part decodes grey.
  DecodeOptions lenient;
  lenient.allow_corrupt_jpeg = true;
  image = Decode(*Buffer::FromString(cut), lenient);
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  EXPECT_EQ(image->width(), 64);
}

TEST(ImageCodecTest, CorruptPngCrcIsADataError) {
  auto png = EncodePng(Pattern(16, 16, 3), 6);
  ASSERT_TRUE(png.ok());
  std::string bytes = Mutable(**png);
  const size_t idat = ChunkOffset(bytes, "IDAT");
  ASSERT_NE(idat, std::string::npos);
  const size_t idat_length = (size_t(uint8_t(bytes[idat + 2])) << 8) | uint8_t(bytes[idat + 3]);
  bytes[idat + 8 + idat_length + 3] ^= 0x01;  // flip a bit of the chunk's stored CRC
  auto image = Decode(*Buffer::FromString(bytes));
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.status().code(), StatusCode::kDataError);
  EXPECT_NE(image.status().message().find("CRC"), std::string::npos) << image.status().ToString();
}

TEST(ImageCodecTest, TruncatedPngIsADataError) {
  auto png = EncodePng(Pattern(16, 16, 3), 6);
  ASSERT_TRUE(png.ok());
  for (int64_t keep : {int64_t{4}, int64_t{20}, (*png)->size() / 2, (*png)->size() - 1}) {
    auto image = Decode(*Buffer::FromString(Mutable(**png).substr(0, static_cast<size_t>(keep))));
    ASSERT_FALSE(image.ok()) << keep;
    EXPECT_EQ(image.status().code(), StatusCode::kDataError) << keep;
  }
}

TEST(ImageCodecTest, PixelLimitIsCheckedBeforeAllocating) {
  // A valid 1x1 PNG whose IHDR claims 100000 x 100000 (CRC fixed up): 10^10 pixels would
  // need 30 GB; the header check refuses it before any pixel memory exists.
  auto png = EncodePng(Pattern(1, 1, 3), 6);
  ASSERT_TRUE(png.ok());
  std::string bytes = Mutable(**png);
  const size_t ihdr = ChunkOffset(bytes, "IHDR");
  ASSERT_EQ(ihdr, 8u);
  const uint8_t big[4] = {0x00, 0x01, 0x86, 0xA0};  // 100000 big-endian
  std::memcpy(&bytes[ihdr + 8], big, 4);
  std::memcpy(&bytes[ihdr + 12], big, 4);
  const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(&bytes[ihdr + 4]), 4 + 13);
  for (int i = 0; i < 4; ++i) bytes[ihdr + 8 + 13 + i] = static_cast<char>((crc >> (24 - 8 * i)) & 0xff);
  auto image = Decode(*Buffer::FromString(bytes));
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.status().code(), StatusCode::kDataError);
  EXPECT_NE(image.status().message().find("exceeds the limit"), std::string::npos) << image.status().ToString();

  DecodeOptions small;
  small.max_pixels = 1000;
  auto jpeg = DecodeFile(SkimageFile("rocket.jpg"), small);
  ASSERT_FALSE(jpeg.ok());
  EXPECT_NE(jpeg.status().message().find("640x427"), std::string::npos) << jpeg.status().ToString();
}

TEST(ImageCodecTest, OptionsAreValidated) {
  DecodeOptions options;
  EXPECT_TRUE(options.Validate().ok());
  options.channels = 2;
  EXPECT_EQ(options.Validate().code(), StatusCode::kInvalidArgument);
  options = DecodeOptions::Defaults();
  options.max_pixels = 0;
  EXPECT_FALSE(options.Validate().ok());
  options = DecodeOptions::Defaults();
  options.min_width = -1;
  EXPECT_FALSE(options.Validate().ok());
}

}  // namespace
}  // namespace recflow::image
