// Unit tests of the image transforms: resize invariants, crops, flips, ElementRandom, normalize.
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "recflow/ops/image/element_random.h"
#include "recflow/ops/image/geometry.h"
#include "recflow/ops/image/normalize.h"
#include "recflow/ops/image/resize.h"

namespace recflow::ops {
namespace {

using image::Image;
using image::PixelType;

// Sample (y, x, c) = y × 16 + x × 2 + c (uint8 wraps), or that value as uint16/float32.
Image Ramp(int height, int width, int channels, PixelType type = PixelType::kUInt8) {
  Image image = Image::Allocate(height, width, channels, type).ValueOrDie();
  int64_t i = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < channels; ++c, ++i) {
        const int v = y * 16 + x * 2 + c;
        if (type == PixelType::kUInt8) image.mutable_samples<uint8_t>()[i] = uint8_t(v);
        if (type == PixelType::kUInt16) image.mutable_samples<uint16_t>()[i] = uint16_t(v * 100);
        if (type == PixelType::kFloat32) image.mutable_samples<float>()[i] = float(v) / 4;
      }
    }
  }
  return image;
}

int At(const Image& image, int y, int x, int c = 0) {
  return image.samples<uint8_t>()[(int64_t{y} * image.width() + x) * image.channels() + c];
}

TEST(ResizeTest, SameSizeIsIdentity) {
  const Image in = Ramp(5, 7, 3);
  for (ResizeMethod method : {ResizeMethod::kBilinear, ResizeMethod::kArea}) {
    auto out = Resize(in, 5, 7, method);
    ASSERT_TRUE(out.ok());
    EXPECT_TRUE(out->Equals(in));
  }
}

TEST(ResizeTest, AreaHalvingAveragesBlocksWithRounding) {
  const Image in = Ramp(4, 6, 1);
  auto out = Resize(in, 2, 3, ResizeMethod::kArea);
  ASSERT_TRUE(out.ok());
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 3; ++x) {
      const int sum = At(in, 2 * y, 2 * x) + At(in, 2 * y, 2 * x + 1) + At(in, 2 * y + 1, 2 * x) +
                      At(in, 2 * y + 1, 2 * x + 1);
      EXPECT_EQ(At(*out, y, x), (sum + 2) / 4) << y << "," << x;
    }
  }
}

TEST(ResizeTest, ConstantImagesStayConstantInEveryType) {
  for (PixelType type : {PixelType::kUInt8, PixelType::kUInt16, PixelType::kFloat32}) {
    Image in = Image::Allocate(9, 11, 2, type).ValueOrDie();
    const int64_t n = 9 * 11 * 2;
    for (int64_t i = 0; i < n; ++i) {
      if (type == PixelType::kUInt8) in.mutable_samples<uint8_t>()[i] = 200;
      if (type == PixelType::kUInt16) in.mutable_samples<uint16_t>()[i] = 60000;
      if (type == PixelType::kFloat32) in.mutable_samples<float>()[i] = -1.5f;
    }
    for (ResizeMethod method : {ResizeMethod::kBilinear, ResizeMethod::kArea}) {
      for (auto [h, w] : {std::pair{4, 5}, std::pair{20, 3}, std::pair{31, 40}}) {
        auto out = Resize(in, h, w, method);
        ASSERT_TRUE(out.ok());
        ASSERT_EQ(out->pixel_type(), type);
        for (int64_t i = 0; i < int64_t{h} * w * 2; ++i) {
          if (type == PixelType::kUInt8) {
            ASSERT_EQ(out->samples<uint8_t>()[i], 200);
          } else if (type == PixelType::kUInt16) {
            ASSERT_EQ(out->samples<uint16_t>()[i], 60000);
          } else {
            ASSERT_NEAR(out->samples<float>()[i], -1.5f, 1e-5);
          }
        }
      }
    }
  }
}

TEST(ResizeTest, RejectsEmptySizesAndParsesNames) {
  EXPECT_FALSE(Resize(Ramp(3, 3, 1), 0, 3, ResizeMethod::kArea).ok());
  EXPECT_EQ(ParseResizeMethod("bilinear"), ResizeMethod::kBilinear);
  EXPECT_EQ(ParseResizeMethod("area"), ResizeMethod::kArea);
  EXPECT_FALSE(ParseResizeMethod("cubic").has_value());
}

TEST(GeometryTest, CenterCropRoundsDown) {
  const Image in = Ramp(7, 8, 2);
  auto out = CenterCrop(in, 4, 3);  // top (7-4)/2 = 1, left (8-3)/2 = 2
  ASSERT_TRUE(out.ok());
  ASSERT_EQ(out->height(), 4);
  ASSERT_EQ(out->width(), 3);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 3; ++x) EXPECT_EQ(At(*out, y, x, 1), At(in, y + 1, x + 2, 1));
  }
  auto too_big = CenterCrop(in, 8, 3);
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.status().code(), StatusCode::kDataError);
  EXPECT_NE(too_big.status().message().find("smaller than"), std::string::npos);
}

TEST(GeometryTest, CropWorksForWideSamples) {
  const Image in = Ramp(6, 6, 3, PixelType::kFloat32);
  auto out = Crop(in, 2, 1, 3, 4);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->samples<float>()[0], in.samples<float>()[(2 * 6 + 1) * 3]);
  EXPECT_FALSE(Crop(in, 4, 0, 3, 4).ok());
  EXPECT_FALSE(Crop(in, -1, 0, 3, 4).ok());
}

TEST(GeometryTest, RandomCropIsReproducibleAndCoversEveryPosition) {
  const Image in = Ramp(10, 12, 1);
  std::set<std::pair<int, int>> seen;
  for (uint64_t row = 0; row < 400; ++row) {
    const uint64_t bits = ElementRandom(42, row, kCropStream);
    auto a = RandomCrop(in, 8, 9, bits);
    auto b = RandomCrop(in, 8, 9, bits);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_TRUE(a->Equals(*b));
    // Recover the window from its first sample: v = top × 16 + left × 2.
    const int v = At(*a, 0, 0);
    seen.insert({v / 16, (v % 16) / 2});
  }
  EXPECT_EQ(seen.size(), 3u * 4u);  // (10-8+1) × (12-9+1) positions, all reached
}

TEST(GeometryTest, FlipsMirror) {
  const Image in = Ramp(3, 4, 2);
  auto h = Flip(in, FlipAxis::kHorizontal);
  auto v = Flip(in, FlipAxis::kVertical);
  ASSERT_TRUE(h.ok() && v.ok());
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 4; ++x) {
      for (int c = 0; c < 2; ++c) {
        EXPECT_EQ(At(*h, y, x, c), At(in, y, 3 - x, c));
        EXPECT_EQ(At(*v, y, x, c), At(in, 2 - y, x, c));
      }
    }
  }
  auto twice = Flip(*h, FlipAxis::kHorizontal);
  ASSERT_TRUE(twice.ok());
  EXPECT_TRUE(twice->Equals(in));
  auto kept = RandomFlip(in, FlipAxis::kHorizontal, 2);
  auto flipped = RandomFlip(in, FlipAxis::kHorizontal, 3);
  ASSERT_TRUE(kept.ok() && flipped.ok());
  EXPECT_TRUE(kept->Equals(in));
  EXPECT_TRUE(flipped->Equals(*h));
  EXPECT_EQ(ParseFlipAxis("vertical"), FlipAxis::kVertical);
  EXPECT_FALSE(ParseFlipAxis("diagonal").has_value());
}

TEST(ElementRandomTest, IsAPureFunctionWithIndependentStreams) {
  // A fixed value (computed independently in Python) pins the function down: changing it
  // would change every seeded dataset.
  EXPECT_EQ(ElementRandom(42, 7, kCropStream), 0x1b1863149f1726faull);
  EXPECT_NE(ElementRandom(7, 0, kCropStream), ElementRandom(7, 0, kFlipStream));
  EXPECT_NE(ElementRandom(7, 0, kCropStream), ElementRandom(7, 1, kCropStream));
  EXPECT_NE(ElementRandom(7, 0, kCropStream), ElementRandom(8, 0, kCropStream));
  int ones = 0;
  for (uint64_t i = 0; i < 10000; ++i) ones += ElementRandom(99, i, kFlipStream) & 1;
  EXPECT_GT(ones, 4700);
  EXPECT_LT(ones, 5300);
}

TEST(NormalizeTest, PerChannelAffineIntoFloat32) {
  const Image in = Ramp(2, 3, 3);
  const float mean[] = {0.5f, 0.25f, 0.0f};
  const float std[] = {0.5f, 0.25f, 2.0f};
  auto out = Normalize(in, mean, std, 1.0f / 255);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ASSERT_EQ(out->pixel_type(), PixelType::kFloat32);
  for (int64_t i = 0; i < 2 * 3 * 3; ++i) {
    const int c = int(i % 3);
    const float expected = (in.samples<uint8_t>()[i] / 255.0f - mean[c]) / std[c];
    EXPECT_NEAR(out->samples<float>()[i], expected, 1e-5) << i;
  }
  const float one[] = {1.0f};
  auto broadcast = Normalize(in, one, one, 1.0f);
  ASSERT_TRUE(broadcast.ok());
  EXPECT_FLOAT_EQ(broadcast->samples<float>()[4], float(in.samples<uint8_t>()[4]) - 1.0f);
  const float two[] = {1.0f, 2.0f};
  EXPECT_EQ(Normalize(in, two, one, 1.0f).status().code(), StatusCode::kInvalidArgument);
  const float zero[] = {0.0f};
  EXPECT_EQ(Normalize(in, one, zero, 1.0f).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::ops
