// OutputSpecOf and StatsDict: the one place the output tuple's order and the stats' keys are read and written natively.
#include "recflow/python/write_spec.h"

#include <pybind11/stl.h>

#include <map>
#include <string>
#include <vector>

namespace py = pybind11;

namespace recflow::python {

dataset::OutputSpec OutputSpecOf(const py::tuple& words) {
  if (words.size() != 13) throw py::type_error("an output spec is a tuple of 13 words");
  dataset::OutputSpec spec;
  spec.output = words[0].cast<std::string>();
  spec.format = words[1].cast<std::string>();
  spec.compression = words[2].cast<std::string>();
  spec.level = words[3].cast<int>();
  spec.shards = words[4].cast<int64_t>();
  spec.max_records_per_shard = words[5].cast<int64_t>();
  spec.max_bytes_per_shard = words[6].cast<int64_t>();
  spec.naming = words[7].cast<std::string>();
  spec.prefix = words[8].cast<std::string>();
  spec.partition_by = words[9].cast<std::vector<std::string>>();
  spec.mode = words[10].cast<std::string>();
  spec.sync = words[11].cast<bool>();
  for (const auto& [key, value] : words[12].cast<std::map<std::string, std::string>>()) spec.args.Set(key, value);
  return spec;
}

py::dict StatsDict(const dataset::SinkStats& stats) {
  py::dict out;
  out["records"] = stats.records;
  out["files"] = stats.files;
  out["partitions"] = stats.partitions;
  out["raw_bytes"] = stats.raw_bytes;
  out["bytes_written"] = stats.written_bytes;
  return out;
}

}  // namespace recflow::python
