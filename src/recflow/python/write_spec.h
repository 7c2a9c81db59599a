// The output words of recflow.write and recflow.dask.convert as one picklable tuple, and what a write reports.
#pragma once

#include <pybind11/pybind11.h>

#include "recflow/dataset/dataset_sink.h"
#include "recflow/dataset/io_specs.h"

namespace recflow::python {

/// The OutputSpec of the tuple python/recflow/_write.py's `_output_spec` makes (output, format,
/// compression, level, shards, max records and bytes per shard, naming, prefix, partition_by,
/// mode, sync, format words); TypeError (pybind11's cast) for a tuple of another shape.
dataset::OutputSpec OutputSpecOf(const pybind11::tuple& words);

/// {"records", "files", "partitions", "raw_bytes", "bytes_written"} of a finished write.
pybind11::dict StatsDict(const dataset::SinkStats& stats);

}  // namespace recflow::python
