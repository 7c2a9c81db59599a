// Separable resampling: per-axis filter weights, then a horizontal and a vertical pass.
#include "recflow/ops/image/resize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace recflow::ops {
namespace {

using image::Image;
using image::PixelType;

constexpr int kPrecisionBits = 22;  // fixed-point weights of the uint8 path, as Pillow's

double Triangle(double x) {
  x = std::fabs(x);
  return x < 1.0 ? 1.0 - x : 0.0;
}

double Box(double x) { return x > -0.5 && x <= 0.5 ? 1.0 : 0.0; }

// The weights of one axis: output pixel i reads inputs [start[i], start[i] + count[i]) with
// weights[i × stride ...].
struct AxisWeights {
  std::vector<int> start;
  std::vector<int> count;
  int stride = 0;
  std::vector<double> weights;
  std::vector<int32_t> fixed;  // weights in kPrecisionBits fixed point
};

AxisWeights ComputeWeights(int in_size, int out_size, ResizeMethod method) {
  const double support_unit = method == ResizeMethod::kBilinear ? 1.0 : 0.5;
  double (*filter)(double) = method == ResizeMethod::kBilinear ? Triangle : Box;
  const double scale = double(in_size) / out_size;
  const double filter_scale = std::max(scale, 1.0);
  const double support = support_unit * filter_scale;
  AxisWeights w;
  w.stride = static_cast<int>(std::ceil(support)) * 2 + 1;
  w.start.resize(out_size);
  w.count.resize(out_size);
  w.weights.assign(size_t(out_size) * w.stride, 0.0);
  w.fixed.assign(w.weights.size(), 0);
  for (int i = 0; i < out_size; ++i) {
    const double center = (i + 0.5) * scale;
    const int lo = std::max(static_cast<int>(center - support + 0.5), 0);
    const int hi = std::min(static_cast<int>(center + support + 0.5), in_size);
    const int count = std::min(hi - lo, w.stride);
    double* k = &w.weights[size_t(i) * w.stride];
    double total = 0;
    for (int j = 0; j < count; ++j) {
      k[j] = filter((j + lo - center + 0.5) / filter_scale);
      total += k[j];
    }
    int32_t* kk = &w.fixed[size_t(i) * w.stride];
    for (int j = 0; j < count; ++j) {
      if (total != 0.0) k[j] /= total;
      const double scaled = k[j] * (1 << kPrecisionBits);
      kk[j] = static_cast<int32_t>(scaled < 0 ? scaled - 0.5 : scaled + 0.5);
    }
    w.start[i] = lo;
    w.count[i] = count;
  }
  return w;
}

// ComputeWeights, remembered per thread for the last few axes: a batch of equal-sized images
// resizes to one size, so each image would otherwise recompute the same weights.
const AxisWeights& Weights(int in_size, int out_size, ResizeMethod method) {
  struct Entry {
    int in_size = -1;
    int out_size = -1;
    ResizeMethod method = ResizeMethod::kBilinear;
    AxisWeights weights;
  };
  thread_local Entry cache[4];
  thread_local int next = 0;
  for (Entry& e : cache) {
    if (e.in_size == in_size && e.out_size == out_size && e.method == method) return e.weights;
  }
  Entry& e = cache[next];
  next = (next + 1) % 4;
  e = Entry{in_size, out_size, method, ComputeWeights(in_size, out_size, method)};
  return e.weights;
}

// A 22-bit fixed-point sum as a sample. Weights are ≥ 0 and sum to 1 (± rounding), so the
// sum stays well inside int32: at most 255 × 2^22 × (1 + ε) + 2^21.
uint8_t ClipFixed(int32_t sum) {
  if (sum <= 0) return 0;
  if (sum >= (int32_t{255} << kPrecisionBits)) return 255;
  return static_cast<uint8_t>(sum >> kPrecisionBits);
}

template <typename T>
T Store(double v) {
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(v);
  } else {
    return static_cast<T>(std::clamp(std::round(v), 0.0, double(std::numeric_limits<T>::max())));
  }
}

// uint8 horizontal pass with `kChannels` channels: 22-bit fixed-point weights, an int32
// accumulator per channel starting at one half (rounding), clipped to 0..255.
template <int kChannels>
void ResampleRows8(const uint8_t* in, int in_width, uint8_t* out, int out_width, int rows, const AxisWeights& w) {
  for (int y = 0; y < rows; ++y) {
    const uint8_t* src = in + int64_t{y} * in_width * kChannels;
    uint8_t* dst = out + int64_t{y} * out_width * kChannels;
    for (int i = 0; i < out_width; ++i) {
      const int32_t* k = &w.fixed[size_t(i) * w.stride];
      const uint8_t* p = src + int64_t{w.start[i]} * kChannels;
      int32_t sum[kChannels];
      for (int c = 0; c < kChannels; ++c) sum[c] = 1 << (kPrecisionBits - 1);
      for (int j = 0; j < w.count[i]; ++j, p += kChannels) {
        for (int c = 0; c < kChannels; ++c) sum[c] += int32_t{p[c]} * k[j];
      }
      for (int c = 0; c < kChannels; ++c) dst[int64_t{i} * kChannels + c] = ClipFixed(sum[c]);
    }
  }
}

// uint8 vertical pass: output row i accumulates whole input rows (vectorisable).
void ResampleColumns8(const uint8_t* in, uint8_t* out, int out_height, int64_t row_samples, const AxisWeights& w) {
  std::vector<int32_t> sum(static_cast<size_t>(row_samples));
  for (int i = 0; i < out_height; ++i) {
    const int32_t* k = &w.fixed[size_t(i) * w.stride];
    std::fill(sum.begin(), sum.end(), 1 << (kPrecisionBits - 1));
    for (int j = 0; j < w.count[i]; ++j) {
      const uint8_t* row = in + int64_t{w.start[i] + j} * row_samples;
      const int32_t kj = k[j];
      int32_t* acc = sum.data();
      for (int64_t s = 0; s < row_samples; ++s) acc[s] += int32_t{row[s]} * kj;
    }
    uint8_t* dst = out + int64_t{i} * row_samples;
    for (int64_t s = 0; s < row_samples; ++s) dst[s] = ClipFixed(sum[static_cast<size_t>(s)]);
  }
}

// uint16 and float32: the same weights in double precision.
template <typename T>
void ResampleRowsWide(const T* in, int in_width, T* out, int out_width, int rows, int channels,
                      const AxisWeights& w) {
  for (int y = 0; y < rows; ++y) {
    const T* src = in + int64_t{y} * in_width * channels;
    T* dst = out + int64_t{y} * out_width * channels;
    for (int i = 0; i < out_width; ++i) {
      const double* k = &w.weights[size_t(i) * w.stride];
      for (int c = 0; c < channels; ++c) {
        const T* p = src + int64_t{w.start[i]} * channels + c;
        double sum = 0;
        for (int j = 0; j < w.count[i]; ++j) sum += double(p[int64_t{j} * channels]) * k[j];
        dst[int64_t{i} * channels + c] = Store<T>(sum);
      }
    }
  }
}

template <typename T>
void ResampleColumnsWide(const T* in, T* out, int out_height, int64_t row_samples, const AxisWeights& w) {
  std::vector<double> sum(static_cast<size_t>(row_samples));
  for (int i = 0; i < out_height; ++i) {
    const double* k = &w.weights[size_t(i) * w.stride];
    std::fill(sum.begin(), sum.end(), 0.0);
    for (int j = 0; j < w.count[i]; ++j) {
      const T* row = in + int64_t{w.start[i] + j} * row_samples;
      for (int64_t s = 0; s < row_samples; ++s) sum[static_cast<size_t>(s)] += double(row[s]) * k[j];
    }
    T* dst = out + int64_t{i} * row_samples;
    for (int64_t s = 0; s < row_samples; ++s) dst[s] = Store<T>(sum[static_cast<size_t>(s)]);
  }
}

template <typename T>
void ResampleRows(const T* in, int in_width, T* out, int out_width, int rows, int channels, const AxisWeights& w) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    switch (channels) {
      case 1: return ResampleRows8<1>(in, in_width, out, out_width, rows, w);
      case 2: return ResampleRows8<2>(in, in_width, out, out_width, rows, w);
      case 3: return ResampleRows8<3>(in, in_width, out, out_width, rows, w);
      default: return ResampleRows8<4>(in, in_width, out, out_width, rows, w);
    }
  } else {
    ResampleRowsWide(in, in_width, out, out_width, rows, channels, w);
  }
}

template <typename T>
void ResampleColumns(const T* in, T* out, int out_height, int64_t row_samples, const AxisWeights& w) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    ResampleColumns8(in, out, out_height, row_samples, w);
  } else {
    ResampleColumnsWide(in, out, out_height, row_samples, w);
  }
}

// Room for the horizontal pass when the vertical one follows: a buffer per thread that grows
// to the largest image up to kMaxKeptBytes, and a buffer of its own for a bigger image.
template <typename T>
class Scratch {
 public:
  explicit Scratch(int64_t samples) {
    constexpr int64_t kMaxKeptBytes = int64_t{16} << 20;
    thread_local std::vector<T> kept;
    std::vector<T>& buffer = samples * int64_t{sizeof(T)} <= kMaxKeptBytes ? kept : own_;
    if (static_cast<int64_t>(buffer.size()) < samples) buffer.resize(static_cast<size_t>(samples));
    data_ = buffer.data();
  }
  T* data() const { return data_; }

 private:
  std::vector<T> own_;
  T* data_;
};

template <typename T>
Result<Image> ResizeTyped(const Image& in, int height, int width, ResizeMethod method,
                          const image::ImageAllocator& allocate) {
  const int channels = in.channels();
  const bool rows = width != in.width(), columns = height != in.height();
  if (!rows && !columns) return in;
  ASSIGN_OR_RETURN(Image out, image::AllocateImage(allocate, height, width, channels, in.pixel_type()));
  const T* source = in.samples<T>();
  Scratch<T> scratch(rows && columns ? int64_t{in.height()} * width * channels : 0);
  if (rows) {
    T* target = columns ? scratch.data() : out.mutable_samples<T>();
    ResampleRows<T>(source, in.width(), target, width, in.height(), channels, Weights(in.width(), width, method));
    source = target;
  }
  if (columns) {
    ResampleColumns<T>(source, out.mutable_samples<T>(), height, int64_t{width} * channels,
                       Weights(in.height(), height, method));
  }
  return out;
}

}  // namespace

std::string_view ResizeMethodName(ResizeMethod method) {
  return method == ResizeMethod::kBilinear ? "bilinear" : "area";
}

std::optional<ResizeMethod> ParseResizeMethod(std::string_view name) {
  for (ResizeMethod method : {ResizeMethod::kBilinear, ResizeMethod::kArea}) {
    if (ResizeMethodName(method) == name) return method;
  }
  return std::nullopt;
}

Result<Image> Resize(const Image& image, int height, int width, ResizeMethod method,
                     const image::ImageAllocator& allocate) {
  RETURN_NOT_OK(image::CheckImageShape(height, width, image.channels()));
  switch (image.pixel_type()) {
    case PixelType::kUInt8: return ResizeTyped<uint8_t>(image, height, width, method, allocate);
    case PixelType::kUInt16: return ResizeTyped<uint16_t>(image, height, width, method, allocate);
    case PixelType::kFloat32: return ResizeTyped<float>(image, height, width, method, allocate);
  }
  return Status::Internal("unknown pixel type");
}

}  // namespace recflow::ops
