// ChunkedIndices: Take over a sequence of arrays (chunks) as if they were one, without concatenating them first.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow {

/// Where indices into a sequence of chunks fall — the elements of chunk k are numbered from
/// starts[k] to starts[k] + lengths[k] − 1, ascending and not overlapping (gaps allowed) — made
/// once and used for every column cut into those chunks. Taking costs the taken elements only
/// (each chunk's taken, then put in the indices' order), not the chunks' size.
class ChunkedIndices {
 public:
  /// The plan for `indices` (any order, repeats allowed); InvalidArgument naming the first index
  /// that is in no chunk.
  static Result<ChunkedIndices> Make(std::span<const int64_t> starts, std::span<const int64_t> lengths,
                                     std::span<const int64_t> indices);

  /// The elements at the indices of `chunks` (one per chunk of the plan, each of its length, all
  /// of type `type`), in the indices' order, with offset 0, as Take gives them.
  Result<std::shared_ptr<ArrayData>> Take(std::span<const std::shared_ptr<ArrayData>> chunks, const DataTypePtr& type) const;
  /// Take of each of `columns` (indices into `schema`) of `batches` (one per chunk of the plan,
  /// each of its length and of `schema`), in that order: rows of batches held apart, gathered.
  Result<std::vector<std::shared_ptr<ArrayData>>> TakeColumns(std::span<const std::shared_ptr<RecordBatch>> batches,
                                                              const Schema& schema, std::span<const int> columns) const;

 private:
  std::vector<std::vector<int64_t>> local_;  // per chunk: the indices falling in it, relative to its start
  std::vector<int64_t> order_;               // where each index's element is in the parts taken one after another;
                                             // empty when that is already the indices' order
  int64_t size_ = 0;
};

}  // namespace recflow
