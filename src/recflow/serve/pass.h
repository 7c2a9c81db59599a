// PassPlan: what one pass of `recflow serve` produces — inputs → columns → scale → rebatch → one IPC stream.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/serve/serve_options.h"
#include "recflow/ops/columns/moments.h"
#include "recflow/ops/columns/scale.h"

namespace recflow::serve {

/// What every pass of a server shares: the options and the scaler fitted once. Immutable, so
/// passes on any number of threads use one plan.
class PassPlan {
 public:
  /// Validates `options`, opens the inputs once (so a missing input or column fails here, not
  /// in every pass) and, when columns are to be scaled, fits their moments over a first pass
  /// (ops::Moments, nulls skipped: population mean and standard deviation, as the pipeline's
  /// standard_scale step). InvalidArgument for a missing or non-numeric scaled column.
  static Result<std::shared_ptr<const PassPlan>> Make(ServeOptions options);

  /// Writes one full pass as one IPC stream (schema, batches, end-of-stream) to `out`, reading
  /// the inputs anew. A pass that would hold more than `client_memory_bytes` stops with an
  /// OutOfMemory error naming the input file and the first row of the unit it was reading.
  Status Stream(OutputStream* out) const;

 private:
  PassPlan(ServeOptions options, std::optional<ops::ColumnScaler> scaler, std::vector<ops::Moments> moments)
      : options_(std::move(options)), scaler_(std::move(scaler)), moments_(std::move(moments)) {}

  ServeOptions options_;
  std::optional<ops::ColumnScaler> scaler_;  // the standard_scale step's kernel, when columns are scaled
  std::vector<ops::Moments> moments_;        // per scaled column, fitted over a first pass
};

}  // namespace recflow::serve
