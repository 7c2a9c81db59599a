// Grouping the rows of a batch by the Hive partition directory their partition columns name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow::dataset {

/// The rows of one batch that fall into one partition directory.
struct PartitionRows {
  /// The relative directory `k1=v1/k2=v2` (PartitionPath), empty when not partitioned.
  std::string dir;
  /// Row indices into the batch, ascending.
  std::vector<int64_t> rows;
};

/// InvalidArgument unless every name is a column of `schema`, appears once, has a type a
/// partition directory can hold (bool, integers, floats, utf8) and is short enough to leave
/// room for a value in a directory name. Returns the column indices.
Result<std::vector<int>> ResolvePartitionColumns(const Schema& schema, const std::vector<std::string>& names);

/// Splits the rows of `batch` by the values of columns `columns` (from ResolvePartitionColumns)
/// into groups in order of first appearance. A value is written as Spark writes it: integers in
/// decimal, bools `true`/`false`, floats in the shortest form that reads back to the same
/// double, utf8 as is, null as kHiveDefaultPartition; with no columns, one group of every row (none for
/// an empty batch). A partition path too long for the file system is a DataError naming the
/// column, the start of the value and the row.
Result<std::vector<PartitionRows>> GroupRowsByPartition(const RecordBatch& batch, const std::vector<int>& columns);

}  // namespace recflow::dataset
