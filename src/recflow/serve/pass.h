// PassPlan: what one pass of `recflow serve` produces — inputs → columns → scale → rebatch → one IPC stream.
#pragma once

#include <memory>

#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/serve/serve_options.h"
#include "recflow/serve/standard_scaler.h"

namespace recflow::serve {

/// What every pass of a server shares: the options and the scaler fitted once. Immutable, so
/// passes on any number of threads use one plan.
class PassPlan {
 public:
  /// Validates `options`, opens the inputs once (so a missing input or column fails here, not
  /// in every pass) and fits the scaler over a first pass when columns are to be scaled.
  static Result<std::shared_ptr<const PassPlan>> Make(ServeOptions options);

  /// Writes one full pass as one IPC stream (schema, batches, end-of-stream) to `out`, reading
  /// the inputs anew. A pass that would hold more than `client_memory_bytes` stops with an
  /// OutOfMemory error naming the input file and the first row of the unit it was reading.
  Status Stream(OutputStream* out) const;

 private:
  PassPlan(ServeOptions options, std::shared_ptr<const StandardScaler> scaler)
      : options_(std::move(options)), scaler_(std::move(scaler)) {}

  ServeOptions options_;
  std::shared_ptr<const StandardScaler> scaler_;
};

}  // namespace recflow::serve
