// Normalize: per-channel (x × scale − mean) / std into float32 samples.
#pragma once

#include <span>

#include "recflow/core/result.h"
#include "recflow/formats/image/image.h"

namespace recflow::ops {

/// A float32 image of the same shape whose sample c is (x × scale − mean[c]) / std[c].
/// `mean` and `std` hold one value (for every channel) or one per channel; std values must be
/// non-zero. E.g. ImageNet on uint8: scale 1/255, mean {0.485, 0.456, 0.406}, std {0.229,
/// 0.224, 0.225}. A per-channel list whose size differs from the image's channels is an
/// InvalidArgument.
/// The output is made by `allocate` (see image::ImageAllocator).
Result<image::Image> Normalize(const image::Image& image, std::span<const float> mean, std::span<const float> std,
                               float scale, const image::ImageAllocator& allocate = nullptr);

/// Checks mean/std sizes (1 or `channels`; 0 for channels means any) and non-zero std.
Status CheckNormalizeParams(std::span<const float> mean, std::span<const float> std, int channels);

}  // namespace recflow::ops
