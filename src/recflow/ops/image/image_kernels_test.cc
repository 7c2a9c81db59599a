// Unit tests of the image column kernels: nulls, row errors, the column layout, batch independence.
#include "recflow/ops/image/image_kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "recflow/columnar/array.h"
#include "recflow/columnar/builder.h"
#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/ops/image/image_column.h"
#include "recflow/formats/image/image_test_util.h"
#include "recflow/testing/testdata.h"

namespace recflow::ops {
namespace {

// Row keys first, first + 1, ... (rows of one contiguous range of the input).
RowKeyFn From(int64_t first) {
  return [first](int64_t i) { return static_cast<uint64_t>(first + i); };
}

using image::Image;
using image::PixelType;

Image Pattern(int height, int width, int channels, int seed) {
  Image image = Image::Allocate(height, width, channels, PixelType::kUInt8).ValueOrDie();
  for (int64_t i = 0; i < image.size_bytes(); ++i) image.mutable_data()[i] = uint8_t(i * 7 + seed * 31);
  return image;
}

std::shared_ptr<ArrayData> Strings(const std::vector<const char*>& values) {
  BinaryBuilder builder(utf8());
  for (const char* v : values) EXPECT_TRUE((v ? builder.Append(v) : builder.AppendNull()).ok());
  return builder.Finish().ValueOrDie();
}

// An image column of `count` distinct images, with row `null_row` null (−1: none).
std::shared_ptr<ArrayData> Images(int count, int null_row = -1) {
  ImageColumnBuilder builder(PixelType::kUInt8);
  for (int i = 0; i < count; ++i) {
    EXPECT_TRUE((i == null_row ? builder.AppendNull() : builder.Append(Pattern(12, 10 + i % 3, 3, i))).ok());
  }
  return builder.Finish().ValueOrDie();
}

Image Row(const std::shared_ptr<ArrayData>& column, int64_t i) {
  return ImageColumnReader::Make(column).ValueOrDie().Get(i).ValueOrDie();
}

TEST(ImageColumnTest, LayoutAndRoundTrip) {
  const auto type = ImageType(PixelType::kUInt16);
  EXPECT_EQ(type->ToString(),
            "struct<height: int32 not null, width: int32 not null, channels: int32 not null, pixels: binary not null>");
  EXPECT_EQ(ImagePixelType(*type).ValueOrDie(), PixelType::kUInt16);
  const auto field = ImageField("image", PixelType::kFloat32);
  EXPECT_EQ(field->metadata()->Get(kImageDtypeKey), "float32");
  EXPECT_EQ(ImagePixelType(*field->type()).ValueOrDie(), PixelType::kFloat32);
  EXPECT_EQ(ImagePixelType(*binary()).status().code(), StatusCode::kTypeError);

  const auto column = Images(3, 1);
  auto reader = ImageColumnReader::Make(column);
  ASSERT_TRUE(reader.ok());
  ASSERT_EQ(reader->length(), 3);
  EXPECT_TRUE(reader->IsNull(1));
  EXPECT_TRUE(reader->Get(2).ValueOrDie().Equals(Pattern(12, 12, 3, 2)));
  // A slice reads the right rows.
  auto sliced = ImageColumnReader::Make(column->Slice(2, 1));
  ASSERT_TRUE(sliced.ok());
  EXPECT_TRUE(sliced->Get(0).ValueOrDie().Equals(Pattern(12, 12, 3, 2)));

  ImageColumnBuilder builder(PixelType::kUInt8);
  EXPECT_EQ(builder.Append(Image::Allocate(1, 1, 1, PixelType::kFloat32).ValueOrDie()).code(),
            StatusCode::kTypeError);
}

TEST(ImageColumnTest, ImagesWrittenInPlace) {
  ImageColumnBuilder builder(PixelType::kUInt8);
  ASSERT_TRUE(builder.Reserve(4).ok());
  // Written in place, then appended: the column holds it.
  Image first = builder.AllocateInPlace(12, 10, 3, PixelType::kUInt8).ValueOrDie();
  const Image pattern = Pattern(12, 10, 3, 0);
  std::copy(pattern.data(), pattern.data() + pattern.size_bytes(), first.mutable_data());
  ASSERT_TRUE(builder.Append(first).ok());
  // Allocated, then abandoned for a null (a failed row) or for another image: never seen.
  Image abandoned = builder.AllocateInPlace(12, 11, 3, PixelType::kUInt8).ValueOrDie();
  std::fill(abandoned.mutable_data(), abandoned.mutable_data() + abandoned.size_bytes(), uint8_t{9});
  ASSERT_TRUE(builder.AppendNull().ok());
  // A second image before the first is appended gets its own memory; the first stays in place.
  Image pending = builder.AllocateInPlace(2, 2, 1, PixelType::kUInt8).ValueOrDie();
  Image second = builder.AllocateInPlace(2, 2, 1, PixelType::kUInt8).ValueOrDie();
  EXPECT_NE(second.data(), pending.data());
  ASSERT_TRUE(builder.Append(Pattern(12, 12, 3, 2)).ok());
  // Another sample type gets memory of its own (and the column refuses it).
  Image wide = builder.AllocateInPlace(1, 1, 1, PixelType::kUInt16).ValueOrDie();
  EXPECT_EQ(builder.Append(wide).code(), StatusCode::kTypeError);

  const auto column = builder.Finish().ValueOrDie();
  ASSERT_EQ(column->length, 3);
  EXPECT_TRUE(Row(column, 0).Equals(pattern));
  EXPECT_TRUE(ImageColumnReader::Make(column).ValueOrDie().IsNull(1));
  EXPECT_TRUE(Row(column, 2).Equals(Pattern(12, 12, 3, 2)));
  EXPECT_EQ(StructArray(column).field(3)->buffers[2]->size(), 12 * 10 * 3 + 12 * 12 * 3);  // the abandoned pixels are gone
}

TEST(ImageKernelsTest, LoadDecodeEncodeChainWithRowErrors) {
  recflow::testing::ScratchDir dir;
  const Image a = Pattern(20, 30, 3, 1);
  const Image b = Pattern(16, 8, 1, 2);
  ASSERT_TRUE(image::testing::WriteFileBytes(dir.File("a.png"), **image::EncodePng(a, 6)).ok());
  ASSERT_TRUE(image::testing::WriteFileBytes(dir.File("b.png"), **image::EncodePng(b, 6)).ok());
  ASSERT_TRUE(image::testing::WriteFileBytes(dir.File("junk.png"), *Buffer::FromString("not an image")).ok());

  RowErrors errors;
  auto files = LoadFiles(Strings({"a.png", nullptr, "missing.png", "junk.png", dir.File("b.png").c_str()}),
                         dir.path().string(), *LocalFileSystem::Instance(), errors);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  ASSERT_EQ(errors.errors().size(), 1u);
  EXPECT_EQ(errors.errors()[0].row, 2);
  EXPECT_NE(errors.errors()[0].status.ToString().find("missing.png"), std::string::npos)
      << errors.errors()[0].status.ToString();
  EXPECT_EQ((*files)->null_count, 2);

  RowErrors decode_errors;
  auto images = DecodeImages(*files, image::DecodeOptions::Defaults(), decode_errors);
  ASSERT_TRUE(images.ok()) << images.status().ToString();
  ASSERT_EQ(decode_errors.errors().size(), 1u);  // junk.png; the null rows stay null silently
  EXPECT_EQ(decode_errors.errors()[0].row, 3);
  EXPECT_EQ(decode_errors.errors()[0].status.code(), StatusCode::kDataError);
  EXPECT_EQ((*images)->length, 5);
  EXPECT_EQ((*images)->null_count, 3);
  EXPECT_TRUE(Row(*images, 0).Equals(a));
  EXPECT_TRUE(Row(*images, 4).Equals(b));

  RowErrors encode_errors;
  auto encoded = EncodeImages(*images, image::ImageFormat::kPng, 3, encode_errors);
  ASSERT_TRUE(encoded.ok());
  EXPECT_TRUE(encode_errors.empty());
  auto again = DecodeImages(*encoded, image::DecodeOptions::Defaults(), encode_errors);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(encode_errors.empty());
  EXPECT_TRUE(Row(*again, 4).Equals(b));

  auto jpeg = EncodeImages(*images, image::ImageFormat::kJpeg, 90, encode_errors);
  ASSERT_TRUE(jpeg.ok());
  EXPECT_TRUE(encode_errors.empty());
  EXPECT_EQ(image::Sniff({reinterpret_cast<const uint8_t*>(BinaryArray(*jpeg).GetView(0).data()), 3}),
            image::ImageFormat::kJpeg);
}

TEST(ImageKernelsTest, LoadFilesReadsThroughTheRunsFileSystemAndAFailedReadLeavesNoBytes) {
  auto memory = std::make_shared<MemoryFileSystem>();
  ASSERT_TRUE(memory->CreateDirectory("/imgs").ok());
  ASSERT_TRUE(memory->WriteSmallFile("/imgs/a", "AAAA", false).ok());
  ASSERT_TRUE(memory->WriteSmallFile("/imgs/b", "BBBBBB", false).ok());
  ASSERT_TRUE(memory->WriteSmallFile("/c", "CC", false).ok());
  FaultInjectingFileSystem faults(memory);
  // "a" takes two reads (its 4 bytes, then the end); the 4th read is the one after b's 6 bytes
  // were appended to the column: they must be taken back.
  faults.FailNth(FsOperation::kRead, 4);

  RowErrors errors;
  auto files = LoadFiles(Strings({"a", "b", "/c"}), "/imgs", faults, errors);
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_TRUE(faults.fired());
  ASSERT_EQ(errors.errors().size(), 1u);
  EXPECT_EQ(errors.errors()[0].row, 1);
  EXPECT_NE(errors.errors()[0].status.ToString().find("/imgs/b"), std::string::npos)
      << errors.errors()[0].status.ToString();
  BinaryArray bytes(*files);
  EXPECT_EQ(bytes.GetView(0), "AAAA");
  EXPECT_TRUE(bytes.IsNull(1));
  EXPECT_EQ(bytes.GetView(2), "CC");
  EXPECT_EQ((*files)->buffers[2]->size(), 6) << "the failed file's bytes stay out of the column";
}

TEST(ImageKernelsTest, DecodeKeeping16BitWidens8BitImages) {
  BinaryBuilder encoded;
  const Image wide = Image::Allocate(2, 2, 1, PixelType::kUInt16).ValueOrDie();
  ASSERT_TRUE(encoded.Append((*image::EncodePng(Pattern(2, 2, 1, 0), 1))->view()).ok());
  ASSERT_TRUE(encoded.Append((*image::EncodePng(wide, 1))->view()).ok());
  image::DecodeOptions options;
  options.keep_16bit = true;
  RowErrors errors;
  auto images = DecodeImages(encoded.Finish().ValueOrDie(), options, errors);
  ASSERT_TRUE(images.ok()) << images.status().ToString();
  EXPECT_TRUE(errors.empty());
  const Image first = Row(*images, 0);
  ASSERT_EQ(first.pixel_type(), PixelType::kUInt16);
  EXPECT_EQ(first.samples<uint16_t>()[1], Pattern(2, 2, 1, 0).data()[1] * 257);
}

TEST(ImageKernelsTest, ResizeCropFlipNormalizeKeepNullsAndReportRows) {
  const auto images = Images(6, 4);
  RowErrors errors;
  auto resized = ResizeImages(images, 9, 9, ResizeMethod::kArea, errors);
  ASSERT_TRUE(resized.ok());
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ((*resized)->null_count, 1);
  EXPECT_EQ(Row(*resized, 5).width(), 9);

  auto cropped = CenterCropImages(images, 12, 11, errors);  // widths 10, 11, 12: rows 0 and 3 too narrow
  ASSERT_TRUE(cropped.ok());
  ASSERT_EQ(errors.errors().size(), 2u);
  EXPECT_EQ(errors.errors()[0].row, 0);
  EXPECT_EQ(errors.errors()[1].row, 3);
  EXPECT_EQ((*cropped)->null_count, 3);

  RowErrors normalize_errors;
  const float mean[] = {0.5f}, std[] = {0.25f};
  auto normalized = NormalizeImages(images, mean, std, 1.0f / 255, normalize_errors);
  ASSERT_TRUE(normalized.ok());
  EXPECT_EQ(ImagePixelType(*(*normalized)->type).ValueOrDie(), PixelType::kFloat32);
  EXPECT_TRUE(normalize_errors.empty());
  EXPECT_EQ(EncodeImages(*normalized, image::ImageFormat::kPng, 6, normalize_errors).ValueOrDie()->null_count, 6);
  EXPECT_EQ(normalize_errors.errors().size(), 5u);  // float32 cannot be PNG; the null row is no error

  auto gray = ConvertImageChannels(images, 1, errors);
  ASSERT_TRUE(gray.ok());
  EXPECT_EQ(Row(*gray, 0).channels(), 1);

  EXPECT_EQ(ResizeImages(images, 0, 9, ResizeMethod::kArea, errors).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ResizeImages(Strings({"x"}), 9, 9, ResizeMethod::kArea, errors).status().code(), StatusCode::kTypeError);
}

TEST(ImageKernelsTest, RandomOpsDependOnGlobalRowIndexNotOnBatching) {
  const auto images = Images(10);
  RowErrors errors;
  auto whole_crop = RandomCropImages(images, 8, 8, 1234, From(100), errors);
  auto whole_flip = RandomFlipImages(images, FlipAxis::kHorizontal, 1234, From(100), errors);
  ASSERT_TRUE(whole_crop.ok() && whole_flip.ok());
  // The same rows in two batches (rows 0-3 and 4-9) with their global first indices.
  for (auto [offset, length] : {std::pair{0, 4}, std::pair{4, 6}}) {
    auto crop = RandomCropImages(images->Slice(offset, length), 8, 8, 1234, From(100 + offset), errors);
    auto flip = RandomFlipImages(images->Slice(offset, length), FlipAxis::kHorizontal, 1234, From(100 + offset), errors);
    ASSERT_TRUE(crop.ok() && flip.ok());
    for (int i = 0; i < length; ++i) {
      EXPECT_TRUE(Row(*crop, i).Equals(Row(*whole_crop, offset + i))) << offset + i;
      EXPECT_TRUE(Row(*flip, i).Equals(Row(*whole_flip, offset + i))) << offset + i;
    }
  }
  EXPECT_TRUE(errors.empty());
  // Another seed gives other crops.
  auto other = RandomCropImages(images, 8, 8, 4321, From(100), errors);
  ASSERT_TRUE(other.ok());
  int differ = 0;
  for (int i = 0; i < 10; ++i) differ += !Row(*other, i).Equals(Row(*whole_crop, i));
  EXPECT_GT(differ, 0);
  // Flips happen about half the time, and a flipped row is the mirror of its input.
  int flipped = 0;
  for (int i = 0; i < 10; ++i) flipped += !Row(*whole_flip, i).Equals(Row(images, i));
  EXPECT_GT(flipped, 0);
  EXPECT_LT(flipped, 10);
}

}  // namespace
}  // namespace recflow::ops
