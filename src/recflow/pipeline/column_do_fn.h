// Column DoFns: steps that compute columns from columns (cast, fill_null, decode_image, ...) or reshape a whole
// batch, built from kernels of the ops layer.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "recflow/pipeline/do_fn.h"

namespace recflow::pipeline {

/// Computes a new column from one input column of a batch. Rows it cannot process go to
/// ctx.row_errors() (with a null in the output).
using ColumnKernel =
    std::function<Result<std::shared_ptr<ArrayData>>(const std::shared_ptr<ArrayData>& input, ProcessContext& ctx)>;

/// One column a ColumnDoFn computes: `kernel` of column `input`, stored as `output` (which
/// replaces the column of that name, or is appended).
struct ColumnJob {
  std::string input;
  FieldPtr output;
  ColumnKernel kernel;
};

/// A DoFn running `jobs` in order (a later job sees the columns of earlier ones); row errors
/// name the job's input column. OutputSchema fails when an input column is missing.
std::shared_ptr<const DoFn> MakeColumnDoFn(std::vector<ColumnJob> jobs);

/// A function of a whole batch that keeps its rows (picking or renaming columns).
using BatchFunction = std::function<Result<std::shared_ptr<RecordBatch>>(const RecordBatch& batch)>;

/// A DoFn applying `fn`; its output schema is fn's result on an empty batch of the input schema.
std::shared_ptr<const DoFn> MakeBatchDoFn(BatchFunction fn);

}  // namespace recflow::pipeline
