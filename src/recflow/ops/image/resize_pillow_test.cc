// Resize golden tests: recflow's bilinear and area filters against Pillow's BILINEAR and BOX.
#include <gtest/gtest.h>

#include <string>

#include "recflow/core/io.h"
#include "recflow/formats/image/image_codec.h"
#include "recflow/formats/image/image_test_util.h"
#include "recflow/ops/image/resize.h"

namespace recflow::ops {
namespace {

using image::testing::HavePillow;
using image::testing::MaxAbsDiff;
using image::testing::RunPillow;
using image::testing::SkimageFile;

// The documented tolerance: uint8 samples differ from Pillow's by at most 1.
constexpr double kTolerance = 1;

struct ResizeCase {
  const char* file;
  const char* pillow_mode;  // "L" or "RGB": the layout both sides resize
  int channels;
  int height, width;
};

void ExpectMatchesPillow(const ResizeCase& c, ResizeMethod method) {
  const std::string path = SkimageFile(c.file);
  const std::string name = std::string(c.file) + " " + c.pillow_mode + " → " + std::to_string(c.width) + "x" +
                           std::to_string(c.height) + " " + std::string(ResizeMethodName(method));
  SCOPED_TRACE(name);
  auto bytes = ReadWholeFile(path);
  ASSERT_TRUE(bytes.ok());
  image::DecodeOptions options;
  options.channels = c.channels;
  auto decoded = image::DecodeImage((*bytes)->span(), options);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  auto ours = Resize(*decoded, c.height, c.width, method);
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  auto theirs = RunPillow({"resize", path, "OUT", std::to_string(c.height), std::to_string(c.width),
                           method == ResizeMethod::kArea ? "box" : "bilinear", c.pillow_mode});
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
  const double diff = MaxAbsDiff(*ours, *theirs);
  EXPECT_GE(diff, 0) << "shapes differ";
  EXPECT_LE(diff, kTolerance);
}

const ResizeCase kCases[] = {
    {"chelsea.png", "RGB", 3, 224, 224},   // down, both axes, non-integer factors
    {"chelsea.png", "RGB", 3, 37, 100},    // strong reduction
    {"chelsea.png", "RGB", 3, 150, 225},   // nearly exactly 1/2
    {"chelsea.png", "RGB", 3, 480, 640},   // up
    {"chelsea.png", "RGB", 3, 600, 200},   // up vertically, down horizontally
    {"camera.png", "L", 1, 100, 77},       // gray down
    {"camera.png", "L", 1, 128, 128},      // gray, integer factor 4
    {"microaneurysms.png", "L", 1, 300, 250},  // gray up
    {"rocket.jpg", "RGB", 3, 28, 28},      // JPEG source, tiny output
};

TEST(ResizePillowTest, BilinearMatchesPillowBilinear) {
  if (!HavePillow()) GTEST_SKIP() << "/usr/bin/python3 cannot import PIL (python3-pil)";
  for (const auto& c : kCases) ExpectMatchesPillow(c, ResizeMethod::kBilinear);
}

TEST(ResizePillowTest, AreaMatchesPillowBox) {
  if (!HavePillow()) GTEST_SKIP() << "/usr/bin/python3 cannot import PIL (python3-pil)";
  for (const auto& c : kCases) ExpectMatchesPillow(c, ResizeMethod::kArea);
}

}  // namespace
}  // namespace recflow::ops
