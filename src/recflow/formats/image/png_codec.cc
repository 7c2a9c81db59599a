// PNG decoding and encoding through libpng, with setjmp error handling confined to C-like frames.
//
// libpng reports errors by longjmp. Every function below that calls setjmp holds no object
// with a destructor, and the callbacks that longjmp hold none at the point they jump, so no
// C++ frame with live objects is ever skipped. The png structs are freed by RAII owners that
// live in the callers' frames, above the setjmp.
#include <png.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <string>

#include "recflow/formats/image/codec_internal.h"

namespace recflow::image {
namespace {

constexpr bool kLittleEndian = std::endian::native == std::endian::little;

// Shared by reading and writing: libpng's error message, copied before the longjmp.
struct PngErrorText {
  char message[200] = "unknown libpng error";
};

void OnPngError(png_structp png, png_const_charp message) {
  auto* text = static_cast<PngErrorText*>(png_get_error_ptr(png));
  std::snprintf(text->message, sizeof(text->message), "%s", message);
  png_longjmp(png, 1);
}

void OnPngWarning(png_structp, png_const_charp) {}

struct PngReader {
  PngErrorText error;
  png_structp png = nullptr;
  png_infop info = nullptr;
  const uint8_t* data = nullptr;
  size_t size = 0;
  size_t pos = 0;
  // From the header.
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  int bit_depth = 0;
  int color_type = 0;
  int interlace = 0;
  // After the transforms.
  int channels = 0;
  int out_bit_depth = 0;
  int passes = 1;
  size_t row_bytes = 0;

  PngReader(const uint8_t* bytes, size_t n) : data(bytes), size(n) {
    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, OnPngError, OnPngWarning);
    if (png != nullptr) info = png_create_info_struct(png);
  }
  ~PngReader() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
  PngReader(const PngReader&) = delete;
  PngReader& operator=(const PngReader&) = delete;
};

void ReadFromMemory(png_structp png, png_bytep out, size_t n) {
  auto* reader = static_cast<PngReader*>(png_get_io_ptr(png));
  if (n > reader->size - reader->pos) png_error(png, "truncated PNG (data ends early)");
  std::memcpy(out, reader->data + reader->pos, n);
  reader->pos += n;
}

// Reads the chunks up to the image data. False on a libpng error.
bool ReadInfo(PngReader* r) {
  if (setjmp(png_jmpbuf(r->png))) return false;
  png_set_read_fn(r->png, r, ReadFromMemory);
  png_set_user_limits(r->png, Image::kMaxDimension, Image::kMaxDimension);
  png_read_info(r->png, r->info);
  png_get_IHDR(r->png, r->info, &r->width, &r->height, &r->bit_depth, &r->color_type, &r->interlace, nullptr,
               nullptr);
  return true;
}

// Expands palettes, tRNS and low-bit gray to 8-bit samples; keeps or strips 16-bit ones.
bool SetTransforms(PngReader* r, bool keep_16bit) {
  if (setjmp(png_jmpbuf(r->png))) return false;
  if (r->color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r->png);
  if (r->color_type == PNG_COLOR_TYPE_GRAY && r->bit_depth < 8) png_set_expand_gray_1_2_4_to_8(r->png);
  if (png_get_valid(r->png, r->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(r->png);
  if (r->bit_depth == 16) {
    if (!keep_16bit) {
      png_set_strip_16(r->png);
    } else if (kLittleEndian) {
      png_set_swap(r->png);
    }
  }
  r->passes = png_set_interlace_handling(r->png);
  png_read_update_info(r->png, r->info);
  r->channels = png_get_channels(r->png, r->info);
  r->out_bit_depth = png_get_bit_depth(r->png, r->info);
  r->row_bytes = png_get_rowbytes(r->png, r->info);
  return true;
}

// Reads every row (every pass when interlaced: libpng merges each pass into the row) and
// the chunks after the image data, so their CRCs are checked too.
bool ReadRows(PngReader* r, uint8_t* pixels, size_t row_bytes) {
  if (setjmp(png_jmpbuf(r->png))) return false;
  for (int pass = 0; pass < r->passes; ++pass) {
    for (png_uint_32 y = 0; y < r->height; ++y) png_read_row(r->png, pixels + y * row_bytes, nullptr);
  }
  png_read_end(r->png, nullptr);
  return true;
}

Status PngError(const PngReader& r) { return Status::DataError(std::string("PNG: ") + r.error.message); }

struct PngWriter {
  PngErrorText error;
  png_structp png = nullptr;
  png_infop info = nullptr;
  BufferBuilder out;

  PngWriter() {
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, OnPngError, OnPngWarning);
    if (png != nullptr) info = png_create_info_struct(png);
  }
  ~PngWriter() { png_destroy_write_struct(&png, info ? &info : nullptr); }
  PngWriter(const PngWriter&) = delete;
  PngWriter& operator=(const PngWriter&) = delete;
};

void WriteToBuilder(png_structp png, png_bytep data, size_t n) {
  auto* writer = static_cast<PngWriter*>(png_get_io_ptr(png));
  // The Status temporary is gone before png_error jumps.
  if (!writer->out.Append(data, static_cast<int64_t>(n)).ok()) png_error(png, "out of memory");
}

void FlushNothing(png_structp) {}

bool WriteImage(PngWriter* w, const uint8_t* pixels, int height, int width, int channels, int bit_depth,
                size_t row_bytes, int level, bool interlaced) {
  if (setjmp(png_jmpbuf(w->png))) return false;
  static constexpr int kColorTypes[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                        PNG_COLOR_TYPE_RGB_ALPHA};
  png_set_write_fn(w->png, w, WriteToBuilder, FlushNothing);
  png_set_IHDR(w->png, w->info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), bit_depth,
               kColorTypes[channels - 1], interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(w->png, level);
  png_write_info(w->png, w->info);
  if (bit_depth == 16 && kLittleEndian) png_set_swap(w->png);
  const int passes = png_set_interlace_handling(w->png);
  for (int pass = 0; pass < passes; ++pass) {
    for (int y = 0; y < height; ++y) png_write_row(w->png, pixels + static_cast<size_t>(y) * row_bytes);
  }
  png_write_end(w->png, nullptr);
  return true;
}

}  // namespace

namespace internal {

Result<Image> DecodePng(std::span<const uint8_t> bytes, const DecodeOptions& options, const ImageAllocator& allocate) {
  PngReader r(bytes.data(), bytes.size());
  if (r.png == nullptr || r.info == nullptr) return Status::OutOfMemory("PNG: cannot create the libpng reader");
  if (!ReadInfo(&r)) return PngError(r);
  RETURN_NOT_OK(CheckPixelLimit("PNG", r.width, r.height, options.max_pixels));
  if (!SetTransforms(&r, options.keep_16bit)) return PngError(r);
  const PixelType type = r.out_bit_depth == 16 ? PixelType::kUInt16 : PixelType::kUInt8;
  // A channel conversion writes the final image itself, so the decoder's goes to a scratch image.
  const bool convert = options.channels != 0 && options.channels != r.channels;
  ASSIGN_OR_RETURN(Image image, AllocateImage(convert ? nullptr : allocate, static_cast<int>(r.height),
                                              static_cast<int>(r.width), r.channels, type));
  if (r.row_bytes != static_cast<size_t>(image.row_bytes())) {
    return Status::Internal("PNG: libpng row size " + std::to_string(r.row_bytes) + " != " +
                            std::to_string(image.row_bytes()));
  }
  if (!ReadRows(&r, image.mutable_data(), r.row_bytes)) return PngError(r);
  if (!convert) return image;
  return ConvertChannels(image, options.channels, allocate);
}

}  // namespace internal

Result<std::shared_ptr<Buffer>> EncodePng(const Image& image, int level, bool interlaced) {
  if (level < 0 || level > 9) return Status::InvalidArgument("PNG level must be 0..9, not " + std::to_string(level));
  if (image.pixel_type() == PixelType::kFloat32) return Status::TypeError("PNG cannot encode float32 images");
  RETURN_NOT_OK(CheckImageShape(image.height(), image.width(), image.channels()));
  PngWriter w;
  if (w.png == nullptr || w.info == nullptr) return Status::OutOfMemory("PNG: cannot create the libpng writer");
  const int bit_depth = image.pixel_type() == PixelType::kUInt16 ? 16 : 8;
  if (!WriteImage(&w, image.data(), image.height(), image.width(), image.channels(), bit_depth,
                  static_cast<size_t>(image.row_bytes()), level, interlaced)) {
    return Status::Internal(std::string("PNG encode: ") + w.error.message);
  }
  return w.out.Finish();
}

}  // namespace recflow::image
