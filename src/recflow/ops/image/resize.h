// Image resizing with Pillow's semantics: separable bilinear (antialiased) and area (box) filters.
#pragma once

#include <optional>
#include <string_view>

#include "recflow/core/result.h"
#include "recflow/formats/image/image.h"

namespace recflow::ops {

/// The resampling filter of Resize().
enum class ResizeMethod : uint8_t {
  /// Triangle filter of support 1 × max(1, scale): bilinear interpolation when enlarging, an
  /// antialiasing tent over the covered input pixels when reducing (Pillow's Image.BILINEAR).
  kBilinear,
  /// Box filter of support 0.5 × max(1, scale): each output pixel is the coverage-weighted
  /// mean of the input pixels under it (Pillow's Image.BOX; OpenCV's INTER_AREA when reducing).
  kArea,
};

/// "bilinear", "area".
std::string_view ResizeMethodName(ResizeMethod method);
/// The method named by ResizeMethodName(), or nothing.
std::optional<ResizeMethod> ParseResizeMethod(std::string_view name);

/// Resizes to height × width (each ≥ 1), every channel alike (alpha is not premultiplied).
///
/// Exactly Pillow 9's Image.resize((width, height), BILINEAR or BOX) for uint8 images: for
/// each axis with scale s = in / out, output pixel i is centred at (i + 0.5) × s, the filter is
/// stretched by max(1, s), its weights over the input pixels in [centre − support, centre +
/// support) are normalised to sum 1 and rounded to 22-bit fixed point; the horizontal pass
/// runs first and its result is rounded to uint8 before the vertical pass. uint16 and
/// float32 images use the same weights in double precision (uint16 rounded and clamped).
/// An axis whose size does not change is left untouched; when neither does, `image` itself is
/// returned. The resized image is made by `allocate` (see image::ImageAllocator).
Result<image::Image> Resize(const image::Image& image, int height, int width, ResizeMethod method,
                            const image::ImageAllocator& allocate = nullptr);

}  // namespace recflow::ops
