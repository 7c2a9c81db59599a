// Per-image decode (+ resize) microbenchmark: Fashion-MNIST 28×28 gray PNGs and a 512×512 RGB JPEG (the image pipeline
// is measured against its floor by bench/image_pipeline.py; this shows the codec and resize costs on their own).
#include <benchmark/benchmark.h>

#include <vector>

#include "recflow/columnar/array.h"
#include "recflow/core/io.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/formats/idx/idx_file.h"
#include "recflow/formats/image/image_codec.h"
#include "recflow/formats/image/image_test_util.h"
#include "recflow/ops/image/resize.h"

namespace {

using namespace recflow;
using image::DecodeOptions;

constexpr const char* kFashionImages = "/usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz";

// The first 256 Fashion-MNIST test images, each encoded as a 28×28 gray PNG (zlib level 6).
const std::vector<std::shared_ptr<Buffer>>& FashionPngs() {
  static const std::vector<std::shared_ptr<Buffer>> pngs = [] {
    std::vector<std::shared_ptr<Buffer>> out;
    auto file = idx::IdxFile::Open(kFashionImages, *LocalFileSystem::Instance());
    if (!file.ok()) return out;
    BinaryArray items(*(*file)->Column(0, 256));
    for (int64_t i = 0; i < items.length(); ++i) {
      auto pixels = Buffer::CopyOf({reinterpret_cast<const uint8_t*>(items.GetView(i).data()), 28 * 28});
      auto image = image::Image::Wrap(28, 28, 1, image::PixelType::kUInt8, *pixels);
      out.push_back(*image::EncodePng(*image, 6));
    }
    return out;
  }();
  return pngs;
}

// skimage's astronaut.png (512×512 RGB), encoded as a 4:2:0 JPEG of quality 90.
const std::shared_ptr<Buffer>& AstronautJpeg() {
  static const std::shared_ptr<Buffer> jpeg = []() -> std::shared_ptr<Buffer> {
    auto png = ReadWholeFile(image::testing::SkimageFile("astronaut.png"));
    if (!png.ok()) return nullptr;
    auto image = image::DecodeImage((*png)->span(), DecodeOptions::Defaults());
    return image.ok() ? *image::EncodeJpeg(*image, 90) : nullptr;
  }();
  return jpeg;
}

void BM_FashionPngDecode(benchmark::State& state, int resize_to) {
  const auto& pngs = FashionPngs();
  if (pngs.empty()) return state.SkipWithError("dataset-fashion-mnist is not installed");
  size_t i = 0;
  for (auto _ : state) {
    auto image = image::DecodeImage(pngs[i++ % pngs.size()]->span(), DecodeOptions::Defaults());
    if (!image.ok()) return state.SkipWithError(image.status().ToString().c_str());
    if (resize_to > 0) image = ops::Resize(*image, resize_to, resize_to, ops::ResizeMethod::kBilinear);
    if (!image.ok()) return state.SkipWithError(image.status().ToString().c_str());
    benchmark::DoNotOptimize(image->data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_FashionPngDecode, decode_only, 0);
BENCHMARK_CAPTURE(BM_FashionPngDecode, decode_resize_32, 32);

// resize_to 0: decode only; dct: let the decoder downscale first (min size = resize_to).
void BM_Jpeg512(benchmark::State& state, int resize_to, ops::ResizeMethod method, bool dct) {
  const auto& jpeg = AstronautJpeg();
  if (!jpeg) return state.SkipWithError("python3-skimage's astronaut.png is missing");
  DecodeOptions options;
  if (dct) options.min_height = options.min_width = resize_to;
  for (auto _ : state) {
    auto image = image::DecodeImage(jpeg->span(), options);
    if (!image.ok()) return state.SkipWithError(image.status().ToString().c_str());
    if (resize_to > 0) image = ops::Resize(*image, resize_to, resize_to, method);
    if (!image.ok()) return state.SkipWithError(image.status().ToString().c_str());
    benchmark::DoNotOptimize(image->data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_Jpeg512, decode_only, 0, ops::ResizeMethod::kBilinear, false);
BENCHMARK_CAPTURE(BM_Jpeg512, decode_bilinear_224, 224, ops::ResizeMethod::kBilinear, false);
BENCHMARK_CAPTURE(BM_Jpeg512, decode_area_224, 224, ops::ResizeMethod::kArea, false);
BENCHMARK_CAPTURE(BM_Jpeg512, dct_half_bilinear_224, 224, ops::ResizeMethod::kBilinear, true);

}  // namespace
