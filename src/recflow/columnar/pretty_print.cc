// ArrayToString: a compact JSON-like rendering of an array's logical values.
#include "recflow/columnar/pretty_print.h"

#include <cstdio>
#include <string>

#include "recflow/columnar/array.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/schema.h"

namespace recflow {

namespace {

void AppendBytes(std::string_view bytes, std::string* out) {
  *out += '"';
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F && c != '"' && c != '\\') {
      *out += c;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof(hex), "\\x%02x", u);
      *out += hex;
    }
  }
  *out += '"';
}

template <typename T>
void AppendNumber(T value, std::string* out) {
  if constexpr (std::is_floating_point_v<T>) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.9g", static_cast<double>(value));
    *out += text;
  } else {
    *out += std::to_string(value);
  }
}

void AppendRange(const std::shared_ptr<ArrayData>& data, int64_t start, int64_t length, int64_t max_elements,
                 std::string* out);

// Appends element i (logical): "null" or its value.
void AppendElement(const std::shared_ptr<ArrayData>& data, int64_t i, int64_t max_elements, std::string* out);

// Appends the value of element i (logical), which is valid.
void AppendValue(const std::shared_ptr<ArrayData>& data, int64_t i, int64_t max_elements, std::string* out) {
  switch (data->type->id()) {
    case TypeId::kNull: *out += "null"; break;
    case TypeId::kBool: *out += BooleanArray(data).Value(i) ? "true" : "false"; break;
    case TypeId::kInt8: AppendNumber(Int8Array(data).Value(i), out); break;
    case TypeId::kInt16: AppendNumber(Int16Array(data).Value(i), out); break;
    case TypeId::kInt32: AppendNumber(Int32Array(data).Value(i), out); break;
    case TypeId::kInt64: AppendNumber(Int64Array(data).Value(i), out); break;
    case TypeId::kUInt8: AppendNumber(UInt8Array(data).Value(i), out); break;
    case TypeId::kUInt16: AppendNumber(UInt16Array(data).Value(i), out); break;
    case TypeId::kUInt32: AppendNumber(UInt32Array(data).Value(i), out); break;
    case TypeId::kUInt64: AppendNumber(UInt64Array(data).Value(i), out); break;
    case TypeId::kFloat32: AppendNumber(Float32Array(data).Value(i), out); break;
    case TypeId::kFloat64: AppendNumber(Float64Array(data).Value(i), out); break;
    case TypeId::kBinary:
    case TypeId::kUtf8:
    case TypeId::kLargeBinary:
    case TypeId::kLargeUtf8:
    case TypeId::kFixedSizeBinary:
    case TypeId::kBinaryView:
    case TypeId::kUtf8View:
      AppendBytes(BinaryValue(*data, i), out);
      break;
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
    case TypeId::kMap:
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      const ChildRange range = ListRange(*data, i);
      AppendRange(data->children[0], range.start, range.length, max_elements, out);
      break;
    }
    case TypeId::kUnion: {
      const UnionSlot slot = UnionChildAt(*data, i);
      AppendElement(data->children[static_cast<size_t>(slot.child)], slot.index, max_elements, out);
      break;
    }
    case TypeId::kDictionary: AppendElement(data->dictionary, DictionaryIndex(*data, i), max_elements, out); break;
    case TypeId::kRunEndEncoded: AppendElement(data->children[1], RunIndex(*data, i), max_elements, out); break;
    case TypeId::kDate32:
    case TypeId::kDate64:
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration: AppendNumber(IntegerValue(*data, i), out); break;
    case TypeId::kFloat16:
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
    case TypeId::kInterval: {
      // Raw little-endian storage; typed renderings live with the formats that need them.
      const auto width = static_cast<size_t>(data->type->bit_width() / 8);
      AppendBytes({reinterpret_cast<const char*>(data->buffers[1]->data()) + (data->offset + i) * width, width}, out);
      break;
    }
    case TypeId::kStruct: {
      StructArray st(data);
      *out += '{';
      for (int f = 0; f < st.num_fields(); ++f) {
        if (f > 0) *out += ", ";
        *out += data->type->fields()[static_cast<size_t>(f)]->name() + ": ";
        AppendElement(st.field(f), i, max_elements, out);
      }
      *out += '}';
      break;
    }
  }
}

// Appends "[...]" of elements [start, start + length).
void AppendRange(const std::shared_ptr<ArrayData>& data, int64_t start, int64_t length, int64_t max_elements,
                 std::string* out) {
  *out += '[';
  for (int64_t i = 0; i < length; ++i) {
    if (i == max_elements) {
      *out += ", ...";
      break;
    }
    if (i > 0) *out += ", ";
    AppendElement(data, start + i, max_elements, out);
  }
  *out += ']';
}

void AppendElement(const std::shared_ptr<ArrayData>& data, int64_t i, int64_t max_elements, std::string* out) {
  if (Array(data).IsNull(i)) {
    *out += "null";
  } else {
    AppendValue(data, i, max_elements, out);
  }
}

}  // namespace

std::string ArrayToString(const ArrayData& data, int64_t max_elements) {
  std::string out;
  AppendRange(std::make_shared<ArrayData>(data), 0, data.length, max_elements, &out);
  return out;
}

}  // namespace recflow
