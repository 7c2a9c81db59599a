// band_math expressions: a small safe arithmetic language over named bands, compiled once and evaluated a whole tile per operation.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::raster {

/// A compiled expression: numbers, band names, + - * / (and unary -), parentheses and the
/// functions abs, sqrt, min, max, positive(x) (x where x > 0, else NaN) and within(x, lo, hi)
/// (x where lo <= x <= hi, else NaN). Evaluation runs each operation over a whole tile (a loop the
/// compiler vectorises), never a call per pixel; NaN (nodata) propagates through every operation,
/// and x/0 follows IEEE 754.
class Expression {
 public:
  /// Compiles `text` over the bands `names` (the order Evaluate's inputs come in); InvalidArgument
  /// naming the position of a syntax error or an unknown name. Expressions are at most 4096
  /// characters and 64 levels deep.
  static Result<Expression> Compile(std::string_view text, const std::vector<std::string>& names);
  /// OK when `text` compiles over some bands (any name is taken for a band): its syntax alone.
  static Status CheckSyntax(std::string_view text);

  /// Writes the expression's value for each of the `n` pixels to `out`; `bands[i]` holds band i's
  /// n values. `scratch` is reused between calls (one per thread).
  void Evaluate(std::span<const double* const> bands, int64_t n, double* out,
                std::vector<std::vector<double>>& scratch) const;

  /// The band indexes the expression reads.
  const std::vector<int>& used_bands() const { return used_; }

  /// One step of the stack program (public for the compiler in expression.cc).
  struct Op {
    enum Kind : uint8_t { kConst, kBand, kNeg, kAdd, kSub, kMul, kDiv, kAbs, kSqrt, kMin, kMax, kPositive, kWithin } kind;
    double value = 0;  ///< kConst
    int band = 0;      ///< kBand
  };

 private:
  std::vector<Op> program_;  // postfix
  std::vector<int> used_;
  int max_depth_ = 0;
};

/// EVI = 2.5 × (nir − red) / (nir + 6 × red − 7.5 × blue + 1) over the surface reflectance bands named
/// `blue`, `red`, `nir`; NaN (nodata) where a band's reflectance is outside [0, 1] (not a surface
/// reflectance: for Landsat Collection 2 Level-2 exactly the DN outside USGS's valid range 7273–43636),
/// where the denominator is not positive (the index is undefined: bright clouds or snow, whose blue
/// reflectance drives it to 0 and below), and where the value is outside [−1, 1], the valid range of
/// USGS's Landsat EVI product (docs/raster.md, "EVI's valid pixels").
std::string EviExpression(std::string_view blue, std::string_view red, std::string_view nir);
/// NDVI = (nir − red) / (nir + red).
std::string NdviExpression(std::string_view red, std::string_view nir);

}  // namespace recflow::raster
