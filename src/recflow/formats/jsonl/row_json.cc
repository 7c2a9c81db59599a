// WriteJsonValue and RowJsonRenderer.
#include "recflow/formats/jsonl/row_json.h"

#include <cstring>
#include <string>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/value_text.h"
#include "recflow/columnar/value_formatting.h"
#include "recflow/formats/example/record_type.h"

namespace recflow::jsonl {
namespace {

template <typename T>
T ValueAt(const ArrayData& data, int64_t i) {
  return data.GetValues<T>(1)[i];
}

Status WriteTimestamp(int64_t micros, JsonWriter* writer) {
  char text[kTimestampTextSize];
  RETURN_NOT_OK(FormatTimestamp(micros, text));
  writer->String({text, sizeof(text)});
  return Status::OK();
}

/// Appends the text of a date, time, timestamp or decimal element (AppendDateText and friends).
void AppendTypedText(const ArrayData& data, int64_t i, std::string* out) {
  const DataType& type = *data.type;
  switch (type.id()) {
    case TypeId::kDate32: return AppendDateText(ValueAt<int32_t>(data, i), out);
    case TypeId::kDate64: {
      constexpr int64_t kMillisPerDay = 86'400'000;
      const int64_t ms = ValueAt<int64_t>(data, i);
      return AppendDateText(ms / kMillisPerDay - (ms % kMillisPerDay < 0 ? 1 : 0), out);
    }
    case TypeId::kTime32:
    case TypeId::kTime64: return AppendTimeText(IntegerValue(data, i), type.params().unit, out);
    case TypeId::kTimestamp:
      return AppendTimestampText(ValueAt<int64_t>(data, i), type.params().unit, !type.params().timezone.empty(), out);
    default: {  // decimals
      const int width = type.bit_width() / 8;
      return AppendDecimalText(data.buffers[1]->data() + (data.offset + i) * width, width, type.params().scale, out);
    }
  }
}

/// An interval as months (year_month), {"days", "milliseconds"} or {"months", "days", "nanoseconds"}.
void WriteInterval(const ArrayData& data, int64_t i, JsonWriter* writer) {
  const uint8_t* at = data.buffers[1]->data() + (data.offset + i) * (data.type->bit_width() / 8);
  int32_t a, b;
  std::memcpy(&a, at, 4);
  switch (data.type->params().interval) {
    case IntervalUnit::kYearMonth: writer->Int(a); return;
    case IntervalUnit::kDayTime:
      std::memcpy(&b, at + 4, 4);
      writer->BeginObject();
      writer->Key("days");
      writer->Int(a);
      writer->Key("milliseconds");
      writer->Int(b);
      writer->EndObject();
      return;
    case IntervalUnit::kMonthDayNano: {
      int64_t nanos;
      std::memcpy(&b, at + 4, 4);
      std::memcpy(&nanos, at + 8, 8);
      writer->BeginObject();
      writer->Key("months");
      writer->Int(a);
      writer->Key("days");
      writer->Int(b);
      writer->Key("nanoseconds");
      writer->Int(nanos);
      writer->EndObject();
      return;
    }
  }
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
    case TypeId::kBinary: writer->Bytes(BinaryValue(data, i)); break;
    case TypeId::kUtf8: writer->String(BinaryValue(data, i)); break;
    case TypeId::kLargeBinary:
    case TypeId::kFixedSizeBinary:
    case TypeId::kBinaryView: writer->Bytes(BinaryValue(data, i)); break;
    case TypeId::kLargeUtf8:
    case TypeId::kUtf8View: writer->String(BinaryValue(data, i)); break;
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kMap: {  // a map is the list of its {key, value} entries
      const ChildRange range = ListRange(data, i);
      const Field& item = *data.type->fields()[0];
      writer->BeginArray();
      for (int64_t j = range.start; j < range.start + range.length; ++j) {
        RETURN_NOT_OK(WriteJsonValue(item, *data.children[0], j, writer));
      }
      writer->EndArray();
      break;
    }
    case TypeId::kUnion: {
      const UnionSlot slot = UnionChildAt(data, i);
      const auto child = static_cast<size_t>(slot.child);
      return WriteJsonValue(*data.type->fields()[child], *data.children[child], slot.index, writer);
    }
    case TypeId::kDictionary: {
      const Field values("values", data.type->value_type(), true, nullptr);
      return WriteJsonValue(values, *data.dictionary, DictionaryIndex(data, i), writer);
    }
    case TypeId::kRunEndEncoded:
      return WriteJsonValue(*data.type->fields()[1], *data.children[1], RunIndex(data, i), writer);
    case TypeId::kFloat16: writer->Float(HalfToFloat(ValueAt<uint16_t>(data, i))); break;
    case TypeId::kDuration: writer->Int(ValueAt<int64_t>(data, i)); break;
    case TypeId::kDate32:
    case TypeId::kDate64:
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: {
      std::string text;
      AppendTypedText(data, i, &text);
      writer->String(text);
      break;
    }
    case TypeId::kInterval: WriteInterval(data, i, writer); break;
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
