// FeatureColumns: ToNative per column, structs flattened to `parent.member` features, each checked by LayoutOf.
#include "recflow/formats/example/feature_columns.h"

#include <map>
#include <numeric>
#include <utility>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/take.h"
#include "recflow/formats/example/column_layout_internal.h"
#include "recflow/formats/example/native_columns_internal.h"

namespace recflow::example {
namespace {

/// A feature column: its field and values.
struct Feature {
  FieldPtr field;
  std::shared_ptr<ArrayData> data;
};

/// True when `type` (native) holds a struct under its lists.
bool HoldsStruct(const DataType& type) {
  if (type.id() == TypeId::kStruct) return true;
  return type.id() == TypeId::kList && HoldsStruct(*type.value_type());
}

/// Member `k` of the struct under the lists of native `data` (a struct or list of ... of
/// struct), under the same lists, null where the struct is.
Result<std::shared_ptr<ArrayData>> Member(const ArrayData& data, size_t k) {
  if (data.type->id() == TypeId::kList) {
    ASSIGN_OR_RETURN(auto child, Member(*data.children[0], k));
    const Field& item = *data.type->fields()[0];
    // Elements of the member's list may be null where the struct or the member may be.
    const DataType& items = *item.type();
    const bool nullable = item.nullable() || (items.id() == TypeId::kStruct && items.fields()[k]->nullable());
    auto out = std::make_shared<ArrayData>(data);
    out->type = list(Field::Make(item.name(), child->type, nullable, item.metadata()));
    out->children = {std::move(child)};
    return out;
  }
  auto member = data.children[k]->Slice(data.offset, data.length);
  if (data.null_count == 0) return member;
  std::vector<int64_t> all(static_cast<size_t>(data.length));
  std::iota(all.begin(), all.end(), 0);
  ASSIGN_OR_RETURN(auto copy, Take(*member, all));  // offset 0, for the struct's nulls to join its own
  return WithNullsOf(data, std::move(copy));
}

/// Appends the features of native `data`, a column or member named `name` from `field`: itself,
/// or for a struct under its lists each member's, named `name.member`. `nullable` says whether
/// `data` may hold nulls (a member of a struct is null wherever the struct is).
Status Flatten(const std::string& name, const Field& field, bool nullable, std::shared_ptr<ArrayData> data,
               std::vector<Feature>* out) {
  if (!HoldsStruct(*data->type)) {
    out->push_back({Field::Make(name, data->type, nullable, field.metadata()), std::move(data)});
    return Status::OK();
  }
  const bool bare_struct = data->type->id() == TypeId::kStruct;
  const DataType* leaf = data->type.get();
  while (leaf->id() == TypeId::kList) leaf = leaf->value_type().get();
  for (size_t k = 0; k < leaf->fields().size(); ++k) {
    const Field& member = *leaf->fields()[k];
    ASSIGN_OR_RETURN(auto values, Member(*data, k));
    // Under lists a member's own nulls are its lists' items; the lists are null where `data` is.
    const bool member_nullable = nullable || (bare_struct && member.nullable());
    RETURN_NOT_OK(Flatten(name + "." + member.name(), member, member_nullable, std::move(values), out));
  }
  return Status::OK();
}

/// Lists around the values of `type`.
int ListDepth(const DataType& type) { return type.id() == TypeId::kList ? 1 + ListDepth(*type.value_type()) : 0; }

}  // namespace

Result<DecimalFeatures> ParseDecimalFeatures(std::string_view name) {
  if (name == "string") return DecimalFeatures::kText;
  if (name == "float") return DecimalFeatures::kFloat;
  return Status::InvalidArgument("decimals are written as 'string' or 'float', not '" + std::string(name) + "'");
}

Result<FeatureColumns> FeatureColumns::Make(const SchemaPtr& schema, RecordType type, const FeatureOptions& options) {
  if (schema == nullptr) return Status::InvalidArgument("FeatureColumns::Make: null schema");
  FeatureColumns out;
  out.input_ = schema;
  out.options_ = options;
  std::vector<FieldPtr> fields;
  std::map<std::string, int> writers;  // feature name -> the column writing it
  for (int index = 0; index < schema->num_fields(); ++index) {
    const FieldPtr& column = schema->field(index);
    const std::string named = "column '" + column->name() + "' of type " + column->type()->ToString();
    Result<DataTypePtr> native = NativeType(column->type(), options.decimals);
    if (!native.ok()) return Status::TypeError(named + ": " + native.status().message());
    out.identity_ = out.identity_ && (*native)->Equals(*column->type()) && !HoldsStruct(**native);
    // The features of an empty column of the native type name and type each feature.
    ASSIGN_OR_RETURN(auto empty, MakeEmptyArray(*native));
    std::vector<Feature> features;
    RETURN_NOT_OK(Flatten(column->name(), *column, column->nullable(), std::move(empty), &features));
    for (const Feature& feature : features) {
      const std::string& name = feature.field->name();
      const std::string where = feature.field->name() == column->name() ? named : named + " (feature '" + name + "')";
      if (ListDepth(*feature.field->type()) > 2) {
        return Status::TypeError(where + ": tf.Example holds lists, and lists of lists in a SequenceExample's "
                                         "feature lists, not deeper");
      }
      if (type != RecordType::kByteArray) RETURN_NOT_OK(LayoutOf(*feature.field, type, where).status());
      const auto [at, added] = writers.emplace(name, index);
      if (!added) {
        return Status::TypeError(where + ", column " + std::to_string(index) + ": feature '" + name +
                                 "' is written by column " + std::to_string(at->second) + " '" +
                                 schema->field(at->second)->name() + "' too (a tf.Example holds one feature of a name)");
      }
      fields.push_back(feature.field);
    }
  }
  out.features_ = out.identity_ ? schema : Schema::Make(std::move(fields), schema->metadata());
  return out;
}

Result<std::shared_ptr<RecordBatch>> FeatureColumns::Convert(const RecordBatch& batch) const {
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (int c = 0; c < input_->num_fields(); ++c) {
    const Field& column = *input_->field(c);
    Result<std::shared_ptr<ArrayData>> native = ToNative(*batch.column_data(c), options_.decimals);
    if (!native.ok()) return native.status().WithField(column.name());
    std::vector<Feature> features;
    RETURN_NOT_OK(Flatten(column.name(), column, column.nullable(), std::move(native).ValueUnsafe(), &features));
    for (Feature& feature : features) columns.push_back(std::move(feature.data));
  }
  return RecordBatch::Make(features_, batch.num_rows(), std::move(columns));
}

}  // namespace recflow::example
