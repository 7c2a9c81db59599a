// Crops and flips of images, fixed or driven by ElementRandom bits.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "recflow/core/result.h"
#include "recflow/formats/image/image.h"

namespace recflow::ops {

/// Which way Flip() mirrors.
enum class FlipAxis : uint8_t {
  kHorizontal,  ///< left ↔ right
  kVertical,    ///< top ↔ bottom
};

/// "horizontal", "vertical".
std::string_view FlipAxisName(FlipAxis axis);
/// The axis named by FlipAxisName(), or nothing.
std::optional<FlipAxis> ParseFlipAxis(std::string_view name);

/// The height × width window whose top-left pixel is (top, left). The window must lie inside
/// the image (else a DataError naming both sizes). Every op here makes its output with
/// `allocate` (see image::ImageAllocator) and returns `image` itself when it is the output.
Result<image::Image> Crop(const image::Image& image, int top, int left, int height, int width,
                          const image::ImageAllocator& allocate = nullptr);

/// The height × width window at the centre: top = (H − height) / 2, left = (W − width) / 2,
/// rounded down. A DataError when the image is smaller than the window.
Result<image::Image> CenterCrop(const image::Image& image, int height, int width,
                                const image::ImageAllocator& allocate = nullptr);

/// A height × width window at a position drawn uniformly from `bits` (ElementRandom output):
/// top = (bits mod 2^32) mod (H − height + 1), left = (bits div 2^32) mod (W − width + 1).
Result<image::Image> RandomCrop(const image::Image& image, int height, int width, uint64_t bits,
                                const image::ImageAllocator& allocate = nullptr);

/// The mirror image.
Result<image::Image> Flip(const image::Image& image, FlipAxis axis, const image::ImageAllocator& allocate = nullptr);

/// Flip() when the lowest bit of `bits` (ElementRandom output) is set, else the image itself:
/// probability 1/2.
Result<image::Image> RandomFlip(const image::Image& image, FlipAxis axis, uint64_t bits,
                                const image::ImageAllocator& allocate = nullptr);

}  // namespace recflow::ops
