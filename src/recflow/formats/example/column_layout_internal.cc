// ColumnLayout: classification of schema columns into null / scalar / list / feature list.
#include "recflow/formats/example/column_layout_internal.h"

#include <string>

#include "recflow/columnar/utf8.h"

namespace recflow::example {

Result<ColumnLayout> LayoutOf(const Field& field, RecordType type, std::string_view column) {
  const DataTypePtr& t = field.type();
  auto unsupported = [&](const std::string& why) {
    const std::string named = column.empty() ? "column '" + field.name() + "' of type " + t->ToString() : std::string(column);
    return Status::TypeError(named + ": " + why);
  };
  if (!IsValidUtf8(field.name())) {
    return Status::InvalidArgument("column name is not valid UTF-8 (feature names are proto3 strings)");
  }
  ColumnLayout layout;
  if (type == RecordType::kSequenceExample) {
    ASSIGN_OR_RETURN(layout.feature_list, IsFeatureListField(field));
  }
  // list, large_list and fixed_size_list all hold a feature's values.
  auto is_list = [](const DataType& type) {
    return type.id() == TypeId::kList || type.id() == TypeId::kLargeList || type.id() == TypeId::kFixedSizeList;
  };
  const bool nested = is_list(*t) && is_list(*t->value_type());
  if (t->id() == TypeId::kNull) {
    layout.shape = ColumnShape::kNull;
    layout.leaf = t;
    return layout;
  }
  if (nested) {
    if (!layout.feature_list) {
      return unsupported(type == RecordType::kSequenceExample
                             ? "a context feature cannot hold list<list<T>>"
                             : "list<list<T>> needs the sequence-example record type (--record-type sequence-example)");
    }
    layout.shape = ColumnShape::kListOfLists;
    layout.leaf = t->value_type()->value_type();
  } else if (layout.feature_list) {
    return unsupported("a feature list column must be list<list<T>>");
  } else if (is_list(*t)) {
    layout.shape = ColumnShape::kList;
    layout.leaf = t->value_type();
  } else {
    layout.shape = ColumnShape::kScalar;
    layout.leaf = t;
  }
  if (!layout.leaf->is_primitive()) {
    return unsupported("tf.Example values are bool, integers, floats, binary or utf8");
  }
  return layout;
}

}  // namespace recflow::example
