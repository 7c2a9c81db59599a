// KeyPartitionFn: the DoFn that numbers each row's partition by its key's hash — a distributed exchange's map side.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/pipeline/do_fn.h"

namespace recflow::pipeline {

/// The int32 column KeyPartitionFn appends.
inline constexpr char kKeyPartitionColumn[] = "recflow_partition";

/// A DoFn passing every row through with kKeyPartitionColumn appended: the partition, in
/// [0, partitions), of the row's `keys` values (XXH64 of their grouping encoding, so rows of one
/// key get one partition in every process; no keys: partition 0). InvalidArgument at build time
/// for a missing key column, a column already named kKeyPartitionColumn or partitions < 1.
std::shared_ptr<const DoFn> MakeKeyPartitionFn(std::vector<std::string> keys, int partitions);

}  // namespace recflow::pipeline
