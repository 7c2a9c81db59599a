// Built-in image steps: load_file, decode_image, resize, center_crop, random_crop, random_flip, normalize,
// convert_channels and encode_image, each a column kernel of ops/image applied batch by batch.
#include "recflow/ops/image/image_column.h"
#include "recflow/ops/image/image_kernels.h"
#include "recflow/pipeline/builtin_steps_internal.h"
#include "recflow/pipeline/column_do_fn.h"

namespace recflow::pipeline {

namespace {

using BuildResult = Result<std::optional<PCollection>>;
using ops::RowErrors;

// The step's image column: `column` (default "image") and its pixel type; `output` defaults to it.
struct ImageArgs {
  std::string column;
  std::string output;
  image::PixelType pixels = image::PixelType::kUInt8;
};

Result<ImageArgs> ReadImageArgs(StepContext& ctx) {
  ImageArgs out;
  ASSIGN_OR_RETURN(out.column, ctx.args->String("column", "image"));
  ASSIGN_OR_RETURN(out.output, ctx.args->String("output", out.column));
  const int index = ctx.input().schema()->GetFieldIndex(out.column);
  if (index < 0) return ctx.args->Error("column", "no column '" + out.column + "' in " + ctx.input().schema()->ToString());
  auto pixels = ops::ImagePixelType(*ctx.input().schema()->field(index)->type());
  if (!pixels.ok()) return ctx.args->Error("column", "'" + out.column + "' is not an image column (decode_image makes one)");
  out.pixels = *pixels;
  return out;
}

Result<int> Dimension(StepArgs& a, std::string_view key) {
  ASSIGN_OR_RETURN(int64_t v, a.Int(key));
  if (v <= 0 || v > image::Image::kMaxDimension) return a.Error(key, "must be in 1.." + std::to_string(image::Image::kMaxDimension));
  return static_cast<int>(v);
}

// One column job as the step's ParDo.
PCollection AddJob(StepContext& ctx, std::string input, FieldPtr output, ColumnKernel kernel) {
  return ctx.pipeline->ParDo(ctx.name, ctx.input(),
                             MakeColumnDoFn({ColumnJob{std::move(input), std::move(output), std::move(kernel)}}),
                             ctx.options);
}

BuildResult BuildLoadFile(StepContext& ctx) {
  ASSIGN_OR_RETURN(std::string column, ctx.args->String("column", "path"));
  ASSIGN_OR_RETURN(std::string base, ctx.args->String("base_dir", ""));
  ASSIGN_OR_RETURN(std::string output, ctx.args->String("output", "bytes"));
  ASSIGN_OR_RETURN(base, ctx.ArgPath("base_dir", base.empty() ? "." : base));
  return AddJob(ctx, column, Field::Make(output, binary()),
                [base](const std::shared_ptr<ArrayData>& in, ProcessContext& c) {
                  return ops::LoadFiles(in, base, c.file_system(), c.row_errors());
                });
}

BuildResult BuildDecode(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::string column, a.String("column", "bytes"));
  ASSIGN_OR_RETURN(std::string output, a.String("output", "image"));
  image::DecodeOptions options = image::DecodeOptions::Defaults();
  ASSIGN_OR_RETURN(int64_t channels, a.Int("channels", 0));
  ASSIGN_OR_RETURN(int64_t min_height, a.Int("min_height", 0));
  ASSIGN_OR_RETURN(int64_t min_width, a.Int("min_width", 0));
  options.channels = static_cast<int>(channels);
  options.min_height = static_cast<int>(min_height);
  options.min_width = static_cast<int>(min_width);
  ASSIGN_OR_RETURN(options.keep_16bit, a.Bool("keep_16bit", false));
  ASSIGN_OR_RETURN(options.max_pixels, a.Int("max_pixels", options.max_pixels));
  ASSIGN_OR_RETURN(options.allow_corrupt_jpeg, a.Bool("allow_corrupt_jpeg", false));
  if (Status st = options.Validate(); !st.ok()) return a.Error("channels", st.message());
  const auto pixels = options.keep_16bit ? image::PixelType::kUInt16 : image::PixelType::kUInt8;
  return AddJob(ctx, column, ops::ImageField(output, pixels),
                [options](const std::shared_ptr<ArrayData>& in, ProcessContext& c) {
                  return ops::DecodeImages(in, options, c.row_errors());
                });
}

BuildResult BuildResize(StepContext& ctx) {
  ASSIGN_OR_RETURN(ImageArgs img, ReadImageArgs(ctx));
  ASSIGN_OR_RETURN(int height, Dimension(*ctx.args, "height"));
  ASSIGN_OR_RETURN(int width, Dimension(*ctx.args, "width"));
  ASSIGN_OR_RETURN(std::string name, ctx.args->String("method", "bilinear"));
  const auto method = ops::ParseResizeMethod(name);
  if (!method) return ctx.args->Error("method", "must be bilinear or area, not '" + name + "'");
  return AddJob(ctx, img.column, ops::ImageField(img.output, img.pixels),
                [height, width, m = *method](const std::shared_ptr<ArrayData>& in, ProcessContext& c) {
                  return ops::ResizeImages(in, height, width, m, c.row_errors());
                });
}

BuildResult BuildCrop(StepContext& ctx, bool random) {
  ASSIGN_OR_RETURN(ImageArgs img, ReadImageArgs(ctx));
  ASSIGN_OR_RETURN(int height, Dimension(*ctx.args, "height"));
  ASSIGN_OR_RETURN(int width, Dimension(*ctx.args, "width"));
  int64_t seed = 0;
  if (random) {
    ASSIGN_OR_RETURN(seed, ctx.args->Int("seed", 0));
  }
  return AddJob(ctx, img.column, ops::ImageField(img.output, img.pixels),
                [=](const std::shared_ptr<ArrayData>& in, ProcessContext& c) {
                  if (!random) return ops::CenterCropImages(in, height, width, c.row_errors());
                  return ops::RandomCropImages(in, height, width, static_cast<uint64_t>(seed),
                                               [&c](int64_t i) { return c.RowKey(i); }, c.row_errors());
                });
}

BuildResult BuildRandomFlip(StepContext& ctx) {
  ASSIGN_OR_RETURN(ImageArgs img, ReadImageArgs(ctx));
  ASSIGN_OR_RETURN(std::string axis_name, ctx.args->String("axis", "horizontal"));
  ASSIGN_OR_RETURN(int64_t seed, ctx.args->Int("seed", 0));
  const auto axis = ops::ParseFlipAxis(axis_name);
  if (!axis) return ctx.args->Error("axis", "must be horizontal or vertical, not '" + axis_name + "'");
  return AddJob(ctx, img.column, ops::ImageField(img.output, img.pixels),
                [a = *axis, seed](const std::shared_ptr<ArrayData>& in, ProcessContext& c) {
                  return ops::RandomFlipImages(in, a, static_cast<uint64_t>(seed),
                                               [&c](int64_t i) { return c.RowKey(i); }, c.row_errors());
                });
}

BuildResult BuildNormalize(StepContext& ctx) {
  ASSIGN_OR_RETURN(ImageArgs img, ReadImageArgs(ctx));
  ASSIGN_OR_RETURN(std::vector<double> mean, ctx.args->DoubleList("mean", {0.0}));
  ASSIGN_OR_RETURN(std::vector<double> std, ctx.args->DoubleList("std", {1.0}));
  ASSIGN_OR_RETURN(double scale, ctx.args->Double("scale", 1.0 / 255.0));
  std::vector<float> m(mean.begin(), mean.end()), s(std.begin(), std.end());
  return AddJob(ctx, img.column, ops::ImageField(img.output, image::PixelType::kFloat32),
                [m, s, scale](const std::shared_ptr<ArrayData>& in, ProcessContext& c) {
                  return ops::NormalizeImages(in, m, s, static_cast<float>(scale), c.row_errors());
                });
}

BuildResult BuildConvertChannels(StepContext& ctx) {
  ASSIGN_OR_RETURN(ImageArgs img, ReadImageArgs(ctx));
  ASSIGN_OR_RETURN(int64_t channels, ctx.args->Int("channels"));
  if (channels < 1 || channels > 4) return ctx.args->Error("channels", "must be 1 (gray), 2, 3 (RGB) or 4 (RGBA)");
  return AddJob(ctx, img.column, ops::ImageField(img.output, img.pixels),
                [n = static_cast<int>(channels)](const std::shared_ptr<ArrayData>& in, ProcessContext& c) {
                  return ops::ConvertImageChannels(in, n, c.row_errors());
                });
}

BuildResult BuildEncode(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::string column, a.String("column", "image"));
  ASSIGN_OR_RETURN(std::string output, a.String("output", "encoded"));
  ASSIGN_OR_RETURN(ImageEncoding encoding, ReadImageEncoding(a));
  return AddJob(ctx, column, Field::Make(output, binary()),
                [encoding](const std::shared_ptr<ArrayData>& in, ProcessContext& c) {
                  return ops::EncodeImages(in, encoding.format, encoding.quality, c.row_errors());
                });
}

}  // namespace

Result<ImageEncoding> ReadImageEncoding(StepArgs& a) {
  ASSIGN_OR_RETURN(std::string format_name, a.String("format", "png"));
  ImageEncoding encoding;
  if (format_name == "jpeg" || format_name == "jpg") {
    encoding.format = image::ImageFormat::kJpeg;
  } else if (format_name != "png") {
    return a.Error("format", "must be png or jpeg, not '" + format_name + "'");
  }
  const bool png = encoding.format == image::ImageFormat::kPng;
  ASSIGN_OR_RETURN(int64_t quality, a.Int("quality", png ? 6 : 95));
  if (png ? (quality < 0 || quality > 9) : (quality < 1 || quality > 100)) {
    return a.Error("quality", png ? "PNG compression level: 0..9" : "JPEG quality: 1..100");
  }
  encoding.quality = static_cast<int>(quality);
  return encoding;
}

void AddImageSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"load_file", "read the file each path names into a bytes column", "column", 1, 1, BuildLoadFile});
  (void)registry->Add(StepType{"decode_image", "JPEG or PNG bytes to an image column (DCT downscaling with min_height/min_width)",
                               "column", 1, 1, BuildDecode});
  (void)registry->Add(StepType{"resize", "resize images (bilinear or area, as Pillow)", "", 1, 1, BuildResize});
  (void)registry->Add(StepType{"center_crop", "crop the centre of each image", "", 1, 1,
                               [](StepContext& ctx) { return BuildCrop(ctx, false); }});
  (void)registry->Add(StepType{"random_crop", "crop at a seeded random position per row", "", 1, 1,
                               [](StepContext& ctx) { return BuildCrop(ctx, true); }});
  (void)registry->Add(StepType{"random_flip", "flip with probability 1/2, seeded per row", "", 1, 1, BuildRandomFlip});
  (void)registry->Add(StepType{"normalize", "(pixel * scale - mean) / std per channel, as float32", "", 1, 1, BuildNormalize});
  (void)registry->Add(StepType{"convert_channels", "gray, gray+alpha, RGB or RGBA", "", 1, 1, BuildConvertChannels});
  (void)registry->Add(StepType{"encode_image", "images to PNG or JPEG bytes", "", 1, 1, BuildEncode});
}

}  // namespace recflow::pipeline
