// Image kernels over RecordBatch columns: load, decode, resize, crop, flip, normalize, encode.
//
// Each kernel maps one input column to a new column of the same length. A null row gives a
// null row (and no error). A row that fails (unreadable file, corrupt image, image smaller
// than a crop, ...) is reported into `errors` with its index in the input column and gives a
// null row; the pipeline then applies the step's on_error policy. A returned error Status
// means the whole call failed (bad arguments, wrong column type, a column over 2 GiB).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "recflow/columnar/array_data.h"
#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"
#include "recflow/formats/image/image_codec.h"
#include "recflow/ops/image/geometry.h"
#include "recflow/ops/image/resize.h"
#include "recflow/ops/row_errors.h"

namespace recflow::ops {

/// Reads the file named by each row of `paths` (utf8 or binary), relative paths resolved
/// under `base_dir` when it is not empty, on `file_system` (the run's). Output: binary column of
/// the files' bytes, read straight into it. A
/// missing or unreadable file is a row error naming the path.
Result<std::shared_ptr<ArrayData>> LoadFiles(const std::shared_ptr<ArrayData>& paths, const std::string& base_dir,
                                             FileSystem& file_system, RowErrors& errors);

/// Decodes each row of `encoded` (binary: JPEG or PNG bytes) into an image column
/// (ImageType). Its sample type is uint16 when options.keep_16bit (8-bit images are widened
/// by × 257 so that 255 ↦ 65535), else uint8.
Result<std::shared_ptr<ArrayData>> DecodeImages(const std::shared_ptr<ArrayData>& encoded,
                                                const image::DecodeOptions& options, RowErrors& errors);

/// Resize() of every image to height × width.
Result<std::shared_ptr<ArrayData>> ResizeImages(const std::shared_ptr<ArrayData>& images, int height, int width,
                                                ResizeMethod method, RowErrors& errors);

/// CenterCrop() of every image; an image smaller than the crop is a row error.
Result<std::shared_ptr<ArrayData>> CenterCropImages(const std::shared_ptr<ArrayData>& images, int height, int width,
                                                    RowErrors& errors);

/// The identity of row i of a column within the whole input (the pipeline's row key), so
/// random choices depend neither on batching nor on threads.
using RowKeyFn = std::function<uint64_t(int64_t row)>;

/// RandomCrop() of row i with bits ElementRandom(seed, row_key(i), kCropStream).
Result<std::shared_ptr<ArrayData>> RandomCropImages(const std::shared_ptr<ArrayData>& images, int height, int width,
                                                    uint64_t seed, const RowKeyFn& row_key, RowErrors& errors);

/// RandomFlip() of row i with bits ElementRandom(seed, row_key(i), kFlipStream).
Result<std::shared_ptr<ArrayData>> RandomFlipImages(const std::shared_ptr<ArrayData>& images, FlipAxis axis,
                                                    uint64_t seed, const RowKeyFn& row_key, RowErrors& errors);

/// Normalize() of every image: a float32 image column. A per-channel mean/std whose size is
/// not an image's channel count is a row error.
Result<std::shared_ptr<ArrayData>> NormalizeImages(const std::shared_ptr<ArrayData>& images,
                                                   std::span<const float> mean, std::span<const float> std,
                                                   float scale, RowErrors& errors);

/// ConvertChannels() of every image to `channels` (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA).
Result<std::shared_ptr<ArrayData>> ConvertImageChannels(const std::shared_ptr<ArrayData>& images, int channels,
                                                        RowErrors& errors);

/// Encodes every image as JPEG (`quality` 1..100) or PNG (`quality` is the zlib level 0..9):
/// a binary column. An image the format cannot hold (float32; uint16 or 2 channels in JPEG)
/// is a row error.
Result<std::shared_ptr<ArrayData>> EncodeImages(const std::shared_ptr<ArrayData>& images, image::ImageFormat format,
                                                int quality, RowErrors& errors);

}  // namespace recflow::ops
