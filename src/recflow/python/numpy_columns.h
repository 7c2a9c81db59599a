// Columns of a RecordBatch as NumPy arrays: fixed-width values as views on the Arrow buffers, lists as values +
// offsets, structs as their members, strings and bytes as object arrays, nulls as masks.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/core/buffer.h"

namespace recflow::python {

/// The owner of one Arrow buffer as a Python object: the `base` of every NumPy view on it, so the
/// buffer lives as long as the views do. `address` and `size` say where its bytes are.
class ArrowBuffer {
 public:
  /// Holds `buffer`.
  explicit ArrowBuffer(std::shared_ptr<Buffer> buffer) : buffer_(std::move(buffer)) {}
  /// The address of the first byte.
  uintptr_t address() const { return reinterpret_cast<uintptr_t>(buffer_->data()); }
  /// The buffer's size in bytes.
  int64_t size() const { return buffer_->size(); }

 private:
  std::shared_ptr<Buffer> buffer_;
};

/// How ToNumpy hands out binary and list columns.
struct NumpyOptions {
  /// binary (large too) as a recflow.ListColumn of uint8 values viewing the data buffer and the
  /// offsets (raw images as rows of bytes, no copy), instead of an object array of bytes.
  bool bytes_as_lists = false;
  /// A list column (binary too, with `bytes_as_lists`) whose rows all have the same length, none of
  /// them or of their values null, as the 2-D array ListColumn.to_dense would make of it — a
  /// read-only view on the values, rows × length — instead of a ListColumn (which stays for the
  /// other lists, for the caller to pad).
  bool dense_uniform_lists = false;
};

/// `column` (named `name` in messages) as a Python value:
///  - bool, integers, floats (float16 too), timestamps, durations, date64: a NumPy array viewing
///    the values buffer (its base an ArrowBuffer) — bool, whose Arrow values are bits, and date32
///    (NumPy has no 32-bit datetime64) are converted;
///  - utf8 / binary (large too) and fixed_size_binary: an object array of str / bytes; binary
///    (large too) with `options.bytes_as_lists`: a ListColumn of uint8 as NumpyOptions says;
///  - list, large_list, fixed_size_list: a recflow.ListColumn of the values (converted as a
///    column) and the offsets (a view for list and large_list), or a 2-D view as
///    NumpyOptions::dense_uniform_lists says;
///  - map: a recflow.MapColumn (a ListColumn whose values are the key/value entries struct);
///  - struct: a recflow.StructColumn of its members (each converted as a column) and its mask;
///  - dictionary: the values taken at the indices;
/// wrapped in a numpy.ma.MaskedArray (True = null) when the column holds nulls (a ListColumn
/// keeps its mask itself), so a null never reads as a zero. Other types (union,
/// decimals, intervals, times, views, run-end encoded) are a TypeError naming the column and its
/// type, raised as recflow.Error.
pybind11::object ToNumpy(const std::shared_ptr<ArrayData>& column, const std::string& name, NumpyOptions options);


/// Every column of `batch` as ToNumpy makes it, in a dict {name: value} in schema order.
pybind11::dict ToNumpy(const RecordBatch& batch, NumpyOptions options);

}  // namespace recflow::python
