// Decoded pixels compared with Pillow's (python3-pil, run at test time) on real JPEG and PNG files.
#include <gtest/gtest.h>

#include <string>

#include "recflow/core/io.h"
#include "recflow/formats/image/image_codec.h"
#include "recflow/formats/image/image_test_util.h"
#include "recflow/testing/testdata.h"

namespace recflow::image {
namespace {

using testing::HavePillow;
using testing::MaxAbsDiff;
using testing::RunPillow;
using testing::SkimageFile;

#define REQUIRE_PILLOW() \
  if (!HavePillow()) GTEST_SKIP() << "/usr/bin/python3 cannot import PIL (python3-pil)"

Result<Image> DecodeFile(const std::string& path, const DecodeOptions& options = DecodeOptions::Defaults()) {
  ASSIGN_OR_RETURN(auto bytes, ReadWholeFile(path));
  return DecodeImage(bytes->span(), options);
}

// Decodes `path` with recflow and Pillow and expects identical samples.
void ExpectSameAsPillow(const std::string& path, const DecodeOptions& options, const std::string& pillow_mode) {
  SCOPED_TRACE(path + " mode " + pillow_mode);
  auto ours = DecodeFile(path, options);
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  std::vector<std::string> args = {"decode", path, "OUT"};
  if (!pillow_mode.empty()) args.push_back(pillow_mode);
  auto theirs = RunPillow(args);
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
  EXPECT_EQ(MaxAbsDiff(*ours, *theirs), 0);
}

TEST(ImagePillowTest, JpegDecodesExactlyAsPillow) {
  REQUIRE_PILLOW();
  // Same libjpeg-turbo underneath, same (accurate integer) DCT and fancy upsampling.
  for (const char* file : {"rocket.jpg", "hubble_deep_field.jpg", "retina.jpg"}) {
    ExpectSameAsPillow(SkimageFile(file), DecodeOptions::Defaults(), "");
  }
}

TEST(ImagePillowTest, JpegDctScalingMatchesPillowDraft) {
  REQUIRE_PILLOW();
  const std::string path = SkimageFile("hubble_deep_field.jpg");  // 1000 x 872
  DecodeOptions options;
  options.min_width = 250;
  options.min_height = 218;  // both pick 1/4
  auto ours = DecodeFile(path, options);
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  EXPECT_EQ(ours->width(), 250);
  auto theirs = RunPillow({"draft", path, "OUT", "218", "250"});
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
  EXPECT_EQ(MaxAbsDiff(*ours, *theirs), 0);
}

TEST(ImagePillowTest, PngDecodesExactlyAsPillow) {
  REQUIRE_PILLOW();
  for (const char* file : {"camera.png", "chelsea.png", "horse.png", "palette_color.png", "green_palette.png",
                           "foo3x5x4indexed.png", "checker_bilevel.png", "palette_gray.png"}) {
    ExpectSameAsPillow(SkimageFile(file), DecodeOptions::Defaults(), "");
  }
}

TEST(ImagePillowTest, ChannelConversionMatchesPillowConvert) {
  REQUIRE_PILLOW();
  DecodeOptions options;
  options.channels = 1;
  ExpectSameAsPillow(SkimageFile("chelsea.png"), options, "L");
  ExpectSameAsPillow(SkimageFile("horse.png"), options, "L");
  options.channels = 3;
  ExpectSameAsPillow(SkimageFile("camera.png"), options, "RGB");
  ExpectSameAsPillow(SkimageFile("horse.png"), options, "RGB");
  options.channels = 4;
  ExpectSameAsPillow(SkimageFile("chelsea.png"), options, "RGBA");
}

TEST(ImagePillowTest, Png16BitGrayMatchesPillow) {
  REQUIRE_PILLOW();
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("gray16.png");
  ASSERT_TRUE(testing::RunPillowCommand({"gray16", path, "37", "53"}).ok());
  DecodeOptions options;
  options.keep_16bit = true;
  auto ours = DecodeFile(path, options);
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  EXPECT_EQ(ours->pixel_type(), PixelType::kUInt16);
  auto theirs = RunPillow({"decode", path, "OUT"});
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
  EXPECT_EQ(MaxAbsDiff(*ours, *theirs), 0);
  // Stripped to 8 bits: the high byte of each sample.
  auto stripped = DecodeFile(path);
  ASSERT_TRUE(stripped.ok());
  for (int64_t i = 0; i < 37 * 53; ++i) {
    ASSERT_EQ(stripped->samples<uint8_t>()[i], theirs->samples<uint16_t>()[i] >> 8) << i;
  }
}

TEST(ImagePillowTest, InterlacedPngWeWriteIsReadByPillow) {
  REQUIRE_PILLOW();
  auto original = DecodeFile(SkimageFile("chelsea.png"));
  ASSERT_TRUE(original.ok());
  auto png = EncodePng(*original, 3, /*interlaced=*/true);
  ASSERT_TRUE(png.ok()) << png.status().ToString();
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("interlaced.png");
  ASSERT_TRUE(testing::WriteFileBytes(path, **png).ok());
  auto theirs = RunPillow({"decode", path, "OUT"});
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
  EXPECT_EQ(MaxAbsDiff(*original, *theirs), 0);
  auto ours = DecodeFile(path);
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  EXPECT_TRUE(ours->Equals(*original));
}

}  // namespace
}  // namespace recflow::image
