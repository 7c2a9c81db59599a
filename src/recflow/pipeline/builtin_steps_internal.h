// The built-in step families, each registered by its own file.
#pragma once

#include "recflow/formats/image/image_codec.h"
#include "recflow/pipeline/step_registry.h"

namespace recflow::pipeline {

/// How a step encodes images (encode_image, to_example).
struct ImageEncoding {
  image::ImageFormat format = image::ImageFormat::kPng;
  int quality = 6;
};

/// The `format` (png [default], jpeg or jpg) and `quality` (PNG's zlib level 0..9, default 6;
/// JPEG's quality 1..100, default 95) arguments of `args`, checked.
Result<ImageEncoding> ReadImageEncoding(StepArgs& args);

/// The index of column `name` of the step's input, or an argument error at `key` naming the
/// input's columns.
Result<int> InputColumn(StepContext& ctx, std::string_view key, const std::string& name);

/// `relative` (a path from the data) inside directory `root`, its parent directories made on
/// `file_system`; DataError when it is absolute or leaves `root` ("..").
Result<std::string> OutputPathInside(FileSystem& file_system, const std::string& root, std::string_view relative);

/// read, write.
void AddIoSteps(StepRegistry* registry);
/// select, drop, rename, cast, filter, fill_null, standard_scale, min_max_scale, vocabulary, one_hot, hash_bucket.
void AddColumnSteps(StepRegistry* registry);
/// load_file, decode_image, resize, center_crop, random_crop, random_flip, normalize, convert_channels, encode_image.
void AddImageSteps(StepRegistry* registry);
/// read_idx, text_template, write_files.
void AddFileSteps(StepRegistry* registry);
/// to_example.
void AddExampleSteps(StepRegistry* registry);
/// flatten, group_by_key, combine_per_key, combine_globally.
void AddGroupingSteps(StepRegistry* registry);
/// read_raster, band_math, evi, ndvi, write_raster.
void AddRasterSteps(StepRegistry* registry);
/// warp, mosaic.
void AddRasterGridSteps(StepRegistry* registry);
/// raster_stats.
void AddRasterStatsSteps(StepRegistry* registry);
/// chips.
void AddRasterChipSteps(StepRegistry* registry);
/// window, test_stream.
void AddStreamingSteps(StepRegistry* registry);

}  // namespace recflow::pipeline
