// JPEG decoding (with DCT-domain downscaling) and encoding through the TurboJPEG 2.x API.
#include <turbojpeg.h>

#include <memory>
#include <string>

#include "recflow/formats/image/codec_internal.h"

namespace recflow::image {
namespace {

struct TjDeleter {
  void operator()(void* handle) const { tjDestroy(handle); }
};
using TjHandle = std::unique_ptr<void, TjDeleter>;

// One decompressor and one compressor per thread: creating a handle allocates libjpeg's
// state, which costs as much as decoding a small image. After an error the handle may be left
// mid-stream (TurboJPEG 2.1 does not reset it after a failed header), so it is replaced.
Result<TjHandle*> ThreadHandle(bool compress) {
  thread_local TjHandle decompressor;
  thread_local TjHandle compressor;
  TjHandle& handle = compress ? compressor : decompressor;
  if (!handle) handle.reset(compress ? tjInitCompress() : tjInitDecompress());
  if (!handle) return Status::OutOfMemory(std::string("TurboJPEG init: ") + tjGetErrorStr2(nullptr));
  return &handle;
}

// The handle's error as a DataError; the handle is dropped (see ThreadHandle).
Status JpegError(TjHandle& handle, const char* what) {
  Status status = Status::DataError(std::string("JPEG ") + what + ": " + tjGetErrorStr2(handle.get()));
  handle.reset();
  return status;
}

// The smallest scaling factor (≤ 1) whose output still covers min_height × min_width.
tjscalingfactor ChooseScale(int width, int height, const DecodeOptions& options) {
  tjscalingfactor best{1, 1};
  if (options.min_height <= 0 && options.min_width <= 0) return best;
  int count = 0;
  const tjscalingfactor* factors = tjGetScalingFactors(&count);
  for (int i = 0; factors != nullptr && i < count; ++i) {
    const tjscalingfactor f = factors[i];
    if (f.num > f.denom) continue;  // never upscale in the decoder
    if (TJSCALED(width, f) < options.min_width || TJSCALED(height, f) < options.min_height) continue;
    // Smaller factor = fewer output pixels; compare num/denom without division.
    if (int64_t{f.num} * best.denom < int64_t{best.num} * f.denom) best = f;
  }
  return best;
}

// Every sample 128, alpha 255.
void FillMidGrey(Image& image) {
  uint8_t* samples = image.mutable_data();
  const int channels = image.channels();
  for (int64_t i = 0; i < image.size_bytes(); ++i) samples[i] = channels == 4 && i % 4 == 3 ? 255 : 128;
}

}  // namespace

namespace internal {

Result<Image> DecodeJpeg(std::span<const uint8_t> bytes, const DecodeOptions& options, const ImageAllocator& allocate) {
  ASSIGN_OR_RETURN(TjHandle * handle_ptr, ThreadHandle(/*compress=*/false));
  TjHandle& handle = *handle_ptr;
  const auto* data = bytes.data();
  const auto size = static_cast<unsigned long>(bytes.size());  // NOLINT(runtime/int): TurboJPEG's type
  int width = 0, height = 0, subsampling = 0, colorspace = 0;
  if (tjDecompressHeader3(handle.get(), data, size, &width, &height, &subsampling, &colorspace) != 0) {
    return JpegError(handle, "header");
  }
  RETURN_NOT_OK(CheckPixelLimit("JPEG", width, height, options.max_pixels));
  if (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) {
    return Status::DataError("unsupported JPEG: CMYK/YCCK colour space");
  }
  int channels = options.channels;
  if (channels == 0) channels = colorspace == TJCS_GRAY ? 1 : 3;
  const int pixel_format = channels == 1 ? TJPF_GRAY : channels == 3 ? TJPF_RGB : TJPF_RGBA;
  const tjscalingfactor scale = ChooseScale(width, height, options);
  const int out_width = TJSCALED(width, scale);
  const int out_height = TJSCALED(height, scale);
  ASSIGN_OR_RETURN(Image image, AllocateImage(allocate, out_height, out_width, channels, PixelType::kUInt8));
  // A corrupt JPEG may stop decoding part-way, and TurboJPEG reports an error that follows a
  // warning as a warning too: what it never reached must read as mid-grey (opaque), whatever
  // memory the image was given.
  if (options.allow_corrupt_jpeg) FillMidGrey(image);
  // LIMITSCANS: a progressive JPEG of more than 500 scans is refused (a known CPU bomb).
  const int flags = TJFLAG_LIMITSCANS | (options.allow_corrupt_jpeg ? 0 : TJFLAG_STOPONWARNING);
  if (tjDecompress2(handle.get(), data, size, image.mutable_data(), out_width, static_cast<int>(image.row_bytes()),
                    out_height, pixel_format, flags) != 0) {
    if (!options.allow_corrupt_jpeg || tjGetErrorCode(handle.get()) == TJERR_FATAL) {
      return JpegError(handle, "data (truncated or corrupt)");
    }
    handle.reset();
  }
  return image;
}

}  // namespace internal

Result<std::shared_ptr<Buffer>> EncodeJpeg(const Image& image, int quality) {
  if (quality < 1 || quality > 100) {
    return Status::InvalidArgument("JPEG quality must be 1..100, not " + std::to_string(quality));
  }
  if (image.pixel_type() != PixelType::kUInt8) {
    return Status::TypeError("JPEG encodes uint8 images only, not " + std::string(PixelTypeName(image.pixel_type())));
  }
  if (image.channels() == 2) return Status::TypeError("JPEG cannot encode gray+alpha images");
  ASSIGN_OR_RETURN(TjHandle * handle_ptr, ThreadHandle(/*compress=*/true));
  TjHandle& handle = *handle_ptr;
  const int channels = image.channels();
  const int pixel_format = channels == 1 ? TJPF_GRAY : channels == 3 ? TJPF_RGB : TJPF_RGBX;
  const int subsampling = channels == 1 ? TJSAMP_GRAY : TJSAMP_420;
  unsigned char* jpeg = nullptr;
  unsigned long jpeg_size = 0;  // NOLINT(runtime/int): TurboJPEG's type
  const int rc = tjCompress2(handle.get(), image.data(), image.width(), static_cast<int>(image.row_bytes()), image.height(),
                             pixel_format, &jpeg, &jpeg_size, subsampling, quality, 0);
  std::unique_ptr<unsigned char, void (*)(unsigned char*)> owned(jpeg, tjFree);
  if (rc != 0) {
    Status status = Status::Internal(std::string("JPEG encode: ") + tjGetErrorStr2(handle.get()));
    handle.reset();
    return status;
  }
  return Buffer::CopyOf({owned.get(), static_cast<size_t>(jpeg_size)});
}

}  // namespace recflow::image
