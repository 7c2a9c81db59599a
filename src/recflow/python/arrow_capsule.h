// The Arrow PyCapsule interface: a BatchStream handed out as an "arrow_array_stream" capsule, and the column names of
// a consumer's requested "arrow_schema" capsule.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "recflow/python/batch_stream.h"

namespace recflow::python {

/// A PyCapsule named "arrow_array_stream" holding an ArrowArrayStream whose get_next pulls
/// `stream` (c_data::ExportBatchStream). The consumer moves the stream out (taking its release);
/// a capsule destroyed with the stream still in it releases it, stopping the read.
pybind11::capsule ExportStreamCapsule(std::shared_ptr<BatchStream> stream);

/// The field names of the struct schema in an "arrow_schema" capsule (the requested_schema of
/// __arrow_c_stream__), read without taking the schema over; TypeError for another object.
std::vector<std::string> RequestedColumnNames(const pybind11::object& requested_schema);

}  // namespace recflow::python
