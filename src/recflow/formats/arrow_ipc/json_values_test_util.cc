// Test support: Arrow integration JSON column values → recflow ArrayData (the independent side of the values comparison).
#include <simdjson.h>

#include <charconv>
#include <cstring>
#include <map>
#include <string>
#include <string_view>

#include "recflow/columnar/bit_util.h"
#include "recflow/formats/arrow_ipc/json_schema_test_util_internal.h"
#include "recflow/formats/arrow_ipc/json_values_test_util_internal.h"

namespace recflow::arrow_ipc::testing {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;

Status JsonError(const std::string& what) {
  std::string message = "integration json: ";
  message += what;
  return Status::DataError(std::move(message));
}

/// 'key' (built by appending: GCC 12 warns falsely about "'" + std::string).
std::string Quoted(std::string_view key) {
  std::string out = "'";
  out += key;
  out += "'";
  return out;
}

Result<element> Get(element object, std::string_view key) {
  element value;
  if (object[key].get(value) != simdjson::SUCCESS) return JsonError("missing key " + Quoted(key));
  return value;
}

bool Has(element object, std::string_view key) {
  element value;
  return object[key].get(value) == simdjson::SUCCESS;
}

Result<array> GetArray(element object, std::string_view key) {
  ASSIGN_OR_RETURN(element value, Get(object, key));
  array out;
  if (value.get_array().get(out) != simdjson::SUCCESS) return JsonError(Quoted(key) + " is not an array");
  return out;
}

/// A JSON integer given as a number or as a decimal string, as a 128-bit value.
Result<__int128> ToInteger(element value) {
  int64_t i = 0;
  uint64_t u = 0;
  std::string_view text;
  if (value.get_int64().get(i) == simdjson::SUCCESS) return static_cast<__int128>(i);
  if (value.get_uint64().get(u) == simdjson::SUCCESS) return static_cast<__int128>(u);
  if (value.get_string().get(text) == simdjson::SUCCESS) {
    const bool negative = !text.empty() && text[0] == '-';
    unsigned __int128 magnitude = 0;
    for (char c : text.substr(negative ? 1 : 0)) {
      if (c < '0' || c > '9') return JsonError("not an integer: " + std::string(text));
      magnitude = magnitude * 10 + static_cast<unsigned>(c - '0');
    }
    return negative ? -static_cast<__int128>(magnitude) : static_cast<__int128>(magnitude);
  }
  return JsonError("not an integer");
}

/// The integer at `key` of `object`.
Result<__int128> IntegerAt(element object, std::string_view key) {
  ASSIGN_OR_RETURN(element value, Get(object, key));
  return ToInteger(value);
}

/// A decimal string as `width` bytes of little-endian two's complement.
Result<std::string> DecimalBytes(element value, int width) {
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS) return JsonError("decimal is not a string");
  const bool negative = !text.empty() && text[0] == '-';
  std::string bytes(static_cast<size_t>(width), '\0');
  for (char c : text.substr(negative ? 1 : 0)) {  // bytes = bytes * 10 + digit
    if (c < '0' || c > '9') return JsonError("not a decimal: " + std::string(text));
    unsigned carry = static_cast<unsigned>(c - '0');
    for (auto& b : bytes) {
      const unsigned v = static_cast<uint8_t>(b) * 10u + carry;
      b = static_cast<char>(v & 0xFF);
      carry = v >> 8;
    }
  }
  if (negative) {  // two's complement: invert and add one
    unsigned carry = 1;
    for (auto& b : bytes) {
      const unsigned v = static_cast<uint8_t>(~static_cast<uint8_t>(b)) + carry;
      b = static_cast<char>(v & 0xFF);
      carry = v >> 8;
    }
  }
  return bytes;
}

Result<std::string> HexBytes(element value) {
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS || text.size() % 2 != 0) return JsonError("bad hex string");
  std::string out;
  for (size_t i = 0; i < text.size(); i += 2) {
    unsigned byte = 0;
    const auto r = std::from_chars(text.data() + i, text.data() + i + 2, byte, 16);
    if (r.ec != std::errc()) return JsonError("bad hex string");
    out.push_back(static_cast<char>(byte));
  }
  return out;
}

Result<std::string> StringOf(element value) {
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS) return JsonError("not a string");
  return std::string(text);
}

/// Appends the low `width` bytes of `v` (little-endian).
Status AppendInt(BufferBuilder& out, __int128 v, int width) {
  uint8_t bytes[16];
  std::memcpy(bytes, &v, 16);
  return out.Append(bytes, width);
}

class ColumnReader {
 public:
  explicit ColumnReader(element doc) : doc_(doc) {}

  /// The array of `column`, described by the JSON schema field `field`, of recflow `type`.
  Result<std::shared_ptr<ArrayData>> Read(element field, element column, const DataTypePtr& type);

 private:
  Result<std::shared_ptr<ArrayData>> Dictionary(element field, const DataTypePtr& value_type);
  Status ReadValidity(element column, ArrayData& out);
  Status ReadFixed(element column, ArrayData& out);
  template <typename Offset>
  Status ReadOffsets(element column, ArrayData& out);
  Status ReadChildren(element field, element column, ArrayData& out);

  element doc_;
  std::map<int64_t, std::shared_ptr<ArrayData>> dictionaries_;
};

Status ColumnReader::ReadValidity(element column, ArrayData& out) {
  out.buffers.push_back(nullptr);
  if (!Has(column, "VALIDITY")) return Status::OK();
  ASSIGN_OR_RETURN(const array bits, GetArray(column, "VALIDITY"));
  BufferBuilder bitmap;
  RETURN_NOT_OK(bitmap.Resize(bit_util::BytesForBits(out.length)));
  int64_t i = 0;
  for (element bit : bits) {
    ASSIGN_OR_RETURN(const __int128 v, ToInteger(bit));
    if (i >= out.length) return JsonError("VALIDITY longer than count");
    if (v != 0) {
      bit_util::SetBit(bitmap.mutable_data(), i);
    } else {
      ++out.null_count;
    }
    ++i;
  }
  if (out.null_count > 0) out.buffers[0] = bitmap.Finish();
  return Status::OK();
}

Status ColumnReader::ReadFixed(element column, ArrayData& out) {
  const DataType& type = *out.type;
  BufferBuilder values;
  if (type.id() == recflow::TypeId::kBool) RETURN_NOT_OK(values.Resize(bit_util::BytesForBits(out.length)));
  ASSIGN_OR_RETURN(const array data, GetArray(column, "DATA"));
  int64_t i = 0;
  for (element v : data) {
    switch (type.id()) {
      case recflow::TypeId::kBool: {
        bool flag = false;
        if (v.get_bool().get(flag) != simdjson::SUCCESS) return JsonError("bool DATA");
        if (flag) bit_util::SetBit(values.mutable_data(), i);
        break;
      }
      case recflow::TypeId::kFloat32:
      case recflow::TypeId::kFloat64: {
        double d = 0;
        if (v.get_double().get(d) != simdjson::SUCCESS) return JsonError("float DATA");
        if (type.id() == recflow::TypeId::kFloat32) {
          RETURN_NOT_OK(values.AppendValue(static_cast<float>(d)));
        } else {
          RETURN_NOT_OK(values.AppendValue(d));
        }
        break;
      }
      case recflow::TypeId::kDecimal128:
      case recflow::TypeId::kDecimal256: {
        ASSIGN_OR_RETURN(const std::string bytes, DecimalBytes(v, type.bit_width() / 8));
        RETURN_NOT_OK(values.Append(bytes.data(), static_cast<int64_t>(bytes.size())));
        break;
      }
      case recflow::TypeId::kFixedSizeBinary: {
        ASSIGN_OR_RETURN(const std::string bytes, HexBytes(v));
        if (static_cast<int64_t>(bytes.size()) != type.params().width) return JsonError("fixed-size binary width");
        RETURN_NOT_OK(values.Append(bytes.data(), static_cast<int64_t>(bytes.size())));
        break;
      }
      case recflow::TypeId::kInterval:
        if (type.params().interval == recflow::IntervalUnit::kDayTime) {
          ASSIGN_OR_RETURN(const __int128 days, IntegerAt(v, "days"));
          ASSIGN_OR_RETURN(const __int128 ms, IntegerAt(v, "milliseconds"));
          RETURN_NOT_OK(AppendInt(values, days, 4));
          RETURN_NOT_OK(AppendInt(values, ms, 4));
          break;
        }
        if (type.params().interval == recflow::IntervalUnit::kMonthDayNano) {
          ASSIGN_OR_RETURN(const __int128 months, IntegerAt(v, "months"));
          ASSIGN_OR_RETURN(const __int128 days, IntegerAt(v, "days"));
          ASSIGN_OR_RETURN(const __int128 ns, IntegerAt(v, "nanoseconds"));
          RETURN_NOT_OK(AppendInt(values, months, 4));
          RETURN_NOT_OK(AppendInt(values, days, 4));
          RETURN_NOT_OK(AppendInt(values, ns, 8));
          break;
        }
        [[fallthrough]];
      default: {  // integers and the types stored as integers
        if (type.id() == recflow::TypeId::kFloat16) return JsonError("float16 DATA is not supported");
        ASSIGN_OR_RETURN(const __int128 n, ToInteger(v));
        RETURN_NOT_OK(AppendInt(values, n, type.bit_width() / 8));
      }
    }
    ++i;
  }
  if (i != out.length) return JsonError("DATA has " + std::to_string(i) + " values, count is " + std::to_string(out.length));
  out.buffers.push_back(values.Finish());
  return Status::OK();
}

template <typename Offset>
Status ColumnReader::ReadOffsets(element column, ArrayData& out) {
  BufferBuilder offsets;
  if (out.length > 0 || Has(column, "OFFSET")) {
    ASSIGN_OR_RETURN(const array values, GetArray(column, "OFFSET"));
    for (element v : values) {
      ASSIGN_OR_RETURN(const __int128 n, ToInteger(v));
      RETURN_NOT_OK(offsets.AppendValue(static_cast<Offset>(n)));
    }
  }
  out.buffers.push_back(offsets.Finish());
  return Status::OK();
}

Status ColumnReader::ReadChildren(element field, element column, ArrayData& out) {
  const auto& child_fields = out.type->fields();
  if (child_fields.empty()) return Status::OK();
  ASSIGN_OR_RETURN(const array json_fields, GetArray(field, "children"));
  ASSIGN_OR_RETURN(const array json_columns, GetArray(column, "children"));
  if (json_fields.size() != child_fields.size() || json_columns.size() != child_fields.size()) {
    return JsonError("children do not match the type " + out.type->ToString());
  }
  for (size_t i = 0; i < child_fields.size(); ++i) {
    ASSIGN_OR_RETURN(auto child, Read(json_fields.at(i).value_unsafe(), json_columns.at(i).value_unsafe(),
                                      child_fields[i]->type()));
    out.children.push_back(std::move(child));
  }
  return Status::OK();
}

Result<std::shared_ptr<ArrayData>> ColumnReader::Dictionary(element field, const DataTypePtr& value_type) {
  ASSIGN_OR_RETURN(element encoding, Get(field, "dictionary"));
  ASSIGN_OR_RETURN(const __int128 id128, IntegerAt(encoding, "id"));
  const auto id = static_cast<int64_t>(id128);
  if (auto it = dictionaries_.find(id); it != dictionaries_.end()) return it->second;
  ASSIGN_OR_RETURN(const array dictionaries, GetArray(doc_, "dictionaries"));
  for (element dict : dictionaries) {
    ASSIGN_OR_RETURN(const __int128 this_id, IntegerAt(dict, "id"));
    if (this_id != id) continue;
    ASSIGN_OR_RETURN(element data, Get(dict, "data"));
    ASSIGN_OR_RETURN(const array columns, GetArray(data, "columns"));
    if (columns.size() != 1) return JsonError("a dictionary has one column");
    ASSIGN_OR_RETURN(auto values, Read(field, columns.at(0).value_unsafe(), value_type));
    dictionaries_[id] = values;
    return values;
  }
  return JsonError("no dictionary " + std::to_string(id));
}

Result<std::shared_ptr<ArrayData>> ColumnReader::Read(element field, element column, const DataTypePtr& type) {
  auto out = std::make_shared<ArrayData>();
  out->type = type;
  ASSIGN_OR_RETURN(const __int128 count, IntegerAt(column, "count"));
  out->length = static_cast<int64_t>(count);
  switch (type->id()) {
    case recflow::TypeId::kNull:
      out->null_count = out->length;
      return out;
    case recflow::TypeId::kDictionary: {
      const DataTypePtr& index = type->params().index_type;
      RETURN_NOT_OK(ReadValidity(column, *out));
      auto indices = std::make_shared<ArrayData>();
      indices->type = index;
      indices->length = out->length;
      RETURN_NOT_OK(ReadFixed(column, *indices));
      out->buffers.push_back(indices->buffers[0]);
      ASSIGN_OR_RETURN(out->dictionary, Dictionary(field, type->params().value_type));
      return out;
    }
    case recflow::TypeId::kBinary:
    case recflow::TypeId::kUtf8:
    case recflow::TypeId::kLargeBinary:
    case recflow::TypeId::kLargeUtf8: {
      RETURN_NOT_OK(ReadValidity(column, *out));
      const bool large = type->id() == recflow::TypeId::kLargeBinary || type->id() == recflow::TypeId::kLargeUtf8;
      RETURN_NOT_OK(large ? ReadOffsets<int64_t>(column, *out) : ReadOffsets<int32_t>(column, *out));
      const bool hex = type->id() == recflow::TypeId::kBinary || type->id() == recflow::TypeId::kLargeBinary;
      BufferBuilder data;
      ASSIGN_OR_RETURN(const array values, GetArray(column, "DATA"));
      for (element v : values) {
        ASSIGN_OR_RETURN(const std::string bytes, hex ? HexBytes(v) : StringOf(v));
        RETURN_NOT_OK(data.Append(bytes.data(), static_cast<int64_t>(bytes.size())));
      }
      out->buffers.push_back(data.Finish());
      return out;
    }
    case recflow::TypeId::kList:
    case recflow::TypeId::kMap:
      RETURN_NOT_OK(ReadValidity(column, *out));
      RETURN_NOT_OK(ReadOffsets<int32_t>(column, *out));
      break;
    case recflow::TypeId::kLargeList:
      RETURN_NOT_OK(ReadValidity(column, *out));
      RETURN_NOT_OK(ReadOffsets<int64_t>(column, *out));
      break;
    case recflow::TypeId::kFixedSizeList:
    case recflow::TypeId::kStruct: RETURN_NOT_OK(ReadValidity(column, *out)); break;
    case recflow::TypeId::kUnion: {
      out->buffers.push_back(nullptr);
      BufferBuilder ids;
      ASSIGN_OR_RETURN(const array type_ids, GetArray(column, "TYPE_ID"));
      for (element v : type_ids) {
        ASSIGN_OR_RETURN(const __int128 n, ToInteger(v));
        RETURN_NOT_OK(ids.AppendValue(static_cast<int8_t>(n)));
      }
      out->buffers.push_back(ids.Finish());
      if (type->params().union_mode == recflow::UnionMode::kDense) {
        BufferBuilder offsets;
        ASSIGN_OR_RETURN(const array values, GetArray(column, "OFFSET"));
        for (element v : values) {
          ASSIGN_OR_RETURN(const __int128 n, ToInteger(v));
          RETURN_NOT_OK(offsets.AppendValue(static_cast<int32_t>(n)));
        }
        out->buffers.push_back(offsets.Finish());
      }
      break;
    }
    default:
      RETURN_NOT_OK(ReadValidity(column, *out));
      RETURN_NOT_OK(ReadFixed(column, *out));
      return out;
  }
  RETURN_NOT_OK(ReadChildren(field, column, *out));
  return out;
}

}  // namespace

Result<std::vector<std::shared_ptr<RecordBatch>>> ReadIntegrationJsonBatches(const std::string& path,
                                                                             const SchemaPtr& schema) {
  ASSIGN_OR_RETURN(const std::string text, ReadDecompressedText(path));
  simdjson::dom::parser parser;
  element doc;
  const simdjson::padded_string padded(text);
  if (parser.parse(padded).get(doc) != simdjson::SUCCESS) return JsonError(path + " is not JSON");
  ASSIGN_OR_RETURN(element json_schema, Get(doc, "schema"));
  ASSIGN_OR_RETURN(const array fields, GetArray(json_schema, "fields"));
  if (fields.size() != static_cast<size_t>(schema->num_fields())) return JsonError("field count differs");
  ColumnReader reader(doc);
  std::vector<std::shared_ptr<RecordBatch>> out;
  ASSIGN_OR_RETURN(const array batches, GetArray(doc, "batches"));
  for (element batch : batches) {
    ASSIGN_OR_RETURN(const __int128 count, IntegerAt(batch, "count"));
    ASSIGN_OR_RETURN(const array columns, GetArray(batch, "columns"));
    if (columns.size() != fields.size()) return JsonError("column count differs");
    std::vector<std::shared_ptr<ArrayData>> arrays;
    for (size_t i = 0; i < fields.size(); ++i) {
      ASSIGN_OR_RETURN(auto column, reader.Read(fields.at(i).value_unsafe(), columns.at(i).value_unsafe(),
                                                schema->field(static_cast<int>(i))->type()));
      arrays.push_back(std::move(column));
    }
    ASSIGN_OR_RETURN(auto record_batch, RecordBatch::Make(schema, static_cast<int64_t>(count), std::move(arrays)));
    out.push_back(std::move(record_batch));
  }
  return out;
}

}  // namespace recflow::arrow_ipc::testing
