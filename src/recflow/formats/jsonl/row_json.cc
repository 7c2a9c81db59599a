// WriteJsonValue and RowJsonRenderer.
#include "recflow/formats/jsonl/row_json.h"

#include "recflow/columnar/bit_util.h"
#include "recflow/formats/csv/value_formatting.h"
#include "recflow/formats/example/record_type.h"

namespace recflow::jsonl {
namespace {

template <typename T>
T ValueAt(const ArrayData& data, int64_t i) {
  return data.GetValues<T>(1)[i];
}

std::string_view BinaryAt(const ArrayData& data, int64_t i) {
  const int32_t* offsets = data.GetValues<int32_t>(1);
  const auto* bytes = reinterpret_cast<const char*>(data.buffers[2]->data());
  return {bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])};
}

Status WriteTimestamp(int64_t micros, JsonWriter* writer) {
  char text[csv::kTimestampTextSize];
  RETURN_NOT_OK(csv::FormatTimestamp(micros, text));
  writer->String({text, sizeof(text)});
  return Status::OK();
}

}  // namespace

Status WriteJsonValue(const Field& field, const ArrayData& data, int64_t i, JsonWriter* writer) {
  const TypeId id = data.type->id();
  if (id == TypeId::kNull || (data.null_count > 0 && !bit_util::GetBit(data.validity(), data.offset + i))) {
    writer->Null();
    return Status::OK();
  }
  switch (id) {
    case TypeId::kNull: break;  // handled above
    case TypeId::kBool: writer->Bool(bit_util::GetBit(data.buffers[1]->data(), data.offset + i)); break;
    case TypeId::kInt8: writer->Int(ValueAt<int8_t>(data, i)); break;
    case TypeId::kInt16: writer->Int(ValueAt<int16_t>(data, i)); break;
    case TypeId::kInt32: writer->Int(ValueAt<int32_t>(data, i)); break;
    case TypeId::kInt64:
      if (IsTimestampField(field)) return WriteTimestamp(ValueAt<int64_t>(data, i), writer);
      writer->Int(ValueAt<int64_t>(data, i));
      break;
    case TypeId::kUInt8: writer->UInt(ValueAt<uint8_t>(data, i)); break;
    case TypeId::kUInt16: writer->UInt(ValueAt<uint16_t>(data, i)); break;
    case TypeId::kUInt32: writer->UInt(ValueAt<uint32_t>(data, i)); break;
    case TypeId::kUInt64: writer->UInt(ValueAt<uint64_t>(data, i)); break;
    case TypeId::kFloat32: writer->Float(ValueAt<float>(data, i)); break;
    case TypeId::kFloat64: writer->Double(ValueAt<double>(data, i)); break;
    case TypeId::kBinary: writer->Bytes(BinaryAt(data, i)); break;
    case TypeId::kUtf8: writer->String(BinaryAt(data, i)); break;
    case TypeId::kList: {
      const int32_t* offsets = data.GetValues<int32_t>(1);
      const Field& item = *data.type->fields()[0];
      writer->BeginArray();
      for (int32_t j = offsets[i]; j < offsets[i + 1]; ++j) RETURN_NOT_OK(WriteJsonValue(item, *data.children[0], j, writer));
      writer->EndArray();
      break;
    }
    case TypeId::kStruct: {
      const auto& fields = data.type->fields();
      writer->BeginObject();
      for (size_t k = 0; k < fields.size(); ++k) {
        writer->Key(fields[k]->name());
        RETURN_NOT_OK(WriteJsonValue(*fields[k], *data.children[k], data.offset + i, writer));
      }
      writer->EndObject();
      break;
    }
    default:
      return Status::TypeError("no JSON rendering for a column of type " + data.type->ToString()).WithField(field.name());
  }
  return Status::OK();
}

RowJsonRenderer::RowJsonRenderer(const Schema& schema, bool sequence_example)
    : fields_(schema.fields()), sequence_example_(sequence_example) {
  for (int c = 0; c < schema.num_fields(); ++c) {
    const auto is_feature_list = example::IsFeatureListField(*schema.field(c));
    const bool feature_list = sequence_example && is_feature_list.ok() && *is_feature_list;
    (feature_list ? feature_lists_ : context_).push_back(c);
  }
}

Status RowJsonRenderer::WriteMembers(const RecordBatch& batch, int64_t row, const std::vector<int>& columns,
                                     JsonWriter* writer) const {
  writer->BeginObject();
  for (int c : columns) {
    const Field& field = *fields_[static_cast<size_t>(c)];
    writer->Key(field.name());
    Status st = WriteJsonValue(field, *batch.column_data(c), row, writer);
    if (!st.ok()) [[unlikely]] return st.WithField(field.name());
  }
  writer->EndObject();
  return Status::OK();
}

Status RowJsonRenderer::Render(const RecordBatch& batch, int64_t row, JsonWriter* writer) const {
  if (!sequence_example_) return WriteMembers(batch, row, context_, writer);
  writer->BeginObject();
  writer->Key("context");
  RETURN_NOT_OK(WriteMembers(batch, row, context_, writer));
  writer->Key("feature_lists");
  RETURN_NOT_OK(WriteMembers(batch, row, feature_lists_, writer));
  writer->EndObject();
  return Status::OK();
}

}  // namespace recflow::jsonl
