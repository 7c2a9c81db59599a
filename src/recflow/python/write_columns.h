// Columns from Python as Arrow columns: the column trees recflow._nodes builds (NumPy buffers in Arrow's layout)
// wrapped without copying, for recflow.write's batches and for what Python pipeline functions return.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow::python {

/// Python objects whose buffers Arrow columns borrowed, handed back when the last column lets go
/// (on any thread, without the GIL) and released by Drain on a thread holding it.
class PyReleases {
 public:
  /// Queues `object` (a reference the caller owns) for release; any thread, GIL or not.
  void Add(PyObject* object);
  /// Drops the references queued so far; the GIL held.
  void Drain();

 private:
  std::mutex mutex_;
  std::vector<PyObject*> objects_;
};

/// A reference to a Python object that may be dropped on any thread: the last owner takes the
/// GIL to release it. What native buffers viewing NumPy memory keep alive.
std::shared_ptr<const void> KeepAlive(pybind11::object object);

/// The column `node` (made by recflow._nodes.column_node) describes, named `name` in errors, where a node
/// is (kind, length, null_count, validity, buffers, children, width):
///  - kind: bool, int8..int64, uint8..uint64, float16/32/64, utf8, binary, large_utf8,
///    large_binary, date32, timestamp[s|ms|us|ns], duration[...], null, list, large_list,
///    fixed_size_list (`width` values each), struct, map (one child: its key/value entries struct);
///  - validity: None or a uint8 array of the packed validity bits (1 = valid, LSB first);
///  - buffers: the buffers after validity in Arrow's order (values; offsets then data; offsets),
///    C-contiguous NumPy arrays borrowed without a copy where aligned, copied where not;
///  - children: (name, node) pairs: a list's item, a struct's fields, a map's entries.
/// A leaf column (laid out by column_node, sound by construction) is checked for its buffers'
/// sizes (Validate); a list, map or struct, whose offsets and masks the caller gave, whole
/// (ValidateFull: offsets, lengths, null counts, UTF-8): a bad column is an error naming it. A borrowed array is let go through `releases` (drained by the
/// caller under the GIL) or, when `releases` is null, by KeepAlive.
Result<std::shared_ptr<ArrayData>> ImportColumn(const pybind11::handle& node, const std::string& name,
                                                const std::shared_ptr<PyReleases>& releases);

/// The batch of `columns`, a list of (name, node) pairs, each imported by ImportColumn (its
/// arrays let go through `releases`). `expected`, when given, is the schema every batch of a write
/// has: a column of another name or type is a TypeError naming it and both types.
Result<std::shared_ptr<RecordBatch>> ImportBatch(const pybind11::list& columns, const SchemaPtr& expected,
                                                 const std::shared_ptr<PyReleases>& releases);

}  // namespace recflow::python
