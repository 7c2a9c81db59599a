// InferField / FromNumpy: a function's result columns through recflow._nodes and ImportColumn, held to the step's
// output types (2-D arrays as lists over the same values, all-null columns as nulls of the column's type).
#include "recflow/python/numpy_to_arrow.h"

#include <utility>

#include "recflow/columnar/builder.h"
#include "recflow/python/write_columns.h"

namespace py = pybind11;

namespace recflow::python {

namespace {

Status ColumnError(const std::string& name, const std::string& message) {
  return Status::TypeError("column '" + name + "': " + message);
}

/// `value` converted as recflow.write converts a column (recflow._nodes.column_node, then ImportColumn).
Result<std::shared_ptr<ArrayData>> Import(const std::string& name, py::handle value) {
  const py::object node = py::module_::import("recflow._nodes").attr("column_node")(name, value);
  return ImportColumn(node, name, nullptr);
}

/// The list (large_list when `type` is one) of `type`'s item over the values of fixed-size list `data`.
Result<std::shared_ptr<ArrayData>> AsList(const ArrayData& data, const DataTypePtr& type) {
  const int64_t width = data.type->params().width;
  BufferBuilder offsets;
  const bool large = type->id() == TypeId::kLargeList;
  RETURN_NOT_OK(offsets.Reserve((data.length + 1) * (large ? 8 : 4)));
  for (int64_t i = 0; i <= data.length; ++i) {
    if (large) {
      offsets.UnsafeAppendValue<int64_t>(i * width);
    } else {
      offsets.UnsafeAppendValue<int32_t>(static_cast<int32_t>(i * width));
    }
  }
  std::shared_ptr<ArrayData> values = data.children[0];
  if (data.offset != 0) values = values->Slice(data.offset * width, data.length * width);
  return ArrayData::Make(type, data.length, {data.buffers[0], offsets.Finish()}, data.null_count, 0,
                         {std::move(values)});
}

}  // namespace

Result<FieldPtr> InferField(const std::string& name, py::handle value, const Schema& input) {
  const int index = input.GetFieldIndex(name);
  const FieldPtr same = index >= 0 ? input.field(index) : nullptr;
  ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> data, Import(name, value));
  DataTypePtr type = data->type;
  if (type->id() == TypeId::kFixedSizeList) type = list(type->fields()[0]);
  if (type->id() == TypeId::kNull) {
    if (same == nullptr) {
      return ColumnError(name, "cannot tell its type from values that are all None; name it in schema={'" + name +
                                   "': TYPE}");
    }
    type = same->type();
  }
  if (same != nullptr && same->type()->Equals(*type)) return same;
  return Field::Make(name, type);
}

Result<std::shared_ptr<ArrayData>> FromNumpy(py::handle value, const Field& field, int64_t rows) {
  const std::string& name = field.name();
  const DataTypePtr& type = field.type();
  ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> data, Import(name, value));
  if (data->length != rows) {
    return ColumnError(name, "expected " + std::to_string(rows) + " values, got " + std::to_string(data->length));
  }
  if (data->type->id() == TypeId::kNull && type->id() != TypeId::kNull) {
    ASSIGN_OR_RETURN(std::unique_ptr<ArrayBuilder> nulls, MakeBuilder(type));
    RETURN_NOT_OK(nulls->AppendNulls(rows));
    ASSIGN_OR_RETURN(data, nulls->Finish());
  } else if (data->type->id() == TypeId::kFixedSizeList &&
             (type->id() == TypeId::kList || type->id() == TypeId::kLargeList) &&
             data->type->fields()[0]->type()->Equals(*type->fields()[0]->type())) {
    ASSIGN_OR_RETURN(data, AsList(*data, type));
  }
  if (!data->type->Equals(*type)) {
    return Status::TypeError("column '" + name + "' is " + data->type->ToString() + " here but " + type->ToString() +
                             " in the step's output schema");
  }
  if (data->null_count > 0 && !field.nullable()) {
    return ColumnError(name, "holds " + std::to_string(data->null_count) + " nulls but is not nullable");
  }
  data->type = type;  // the field's own type object (its item's name and nullability)
  return data;
}

}  // namespace recflow::python
