// Names and readable renderings of the Arrow types in a SchemaDesc.
#include <string>

#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc {
namespace {

std::string_view TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "s";
    case TimeUnit::kMillisecond: return "ms";
    case TimeUnit::kMicrosecond: return "us";
    case TimeUnit::kNanosecond: return "ns";
  }
  return "?";
}

}  // namespace

std::string_view TypeIdName(TypeId id) {
  switch (id) {
    case TypeId::kNull: return "null";
    case TypeId::kBool: return "bool";
    case TypeId::kInt: return "int";
    case TypeId::kFloatingPoint: return "floating_point";
    case TypeId::kDecimal: return "decimal";
    case TypeId::kDate: return "date";
    case TypeId::kTime: return "time";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kDuration: return "duration";
    case TypeId::kInterval: return "interval";
    case TypeId::kBinary: return "binary";
    case TypeId::kUtf8: return "utf8";
    case TypeId::kLargeBinary: return "large_binary";
    case TypeId::kLargeUtf8: return "large_utf8";
    case TypeId::kFixedSizeBinary: return "fixed_size_binary";
    case TypeId::kList: return "list";
    case TypeId::kLargeList: return "large_list";
    case TypeId::kFixedSizeList: return "fixed_size_list";
    case TypeId::kStruct: return "struct";
    case TypeId::kMap: return "map";
    case TypeId::kUnion: return "union";
    case TypeId::kRunEndEncoded: return "run_end_encoded";
    case TypeId::kBinaryView: return "binary_view";
    case TypeId::kUtf8View: return "utf8_view";
    case TypeId::kListView: return "list_view";
    case TypeId::kLargeListView: return "large_list_view";
  }
  return "?";
}

std::string TypeToString(const TypeDesc& type) {
  using std::to_string;
  switch (type.id) {
    case TypeId::kInt:
      return (type.is_signed ? "int" : "uint") + to_string(type.bit_width);
    case TypeId::kFloatingPoint:
      return type.precision == FloatPrecision::kHalf     ? "float16"
             : type.precision == FloatPrecision::kSingle ? "float32"
                                                          : "float64";
    case TypeId::kDecimal:
      return "decimal" + to_string(type.bit_width) + "(" + to_string(type.decimal_precision) + ", " +
             to_string(type.decimal_scale) + ")";
    case TypeId::kDate:
      return type.date_unit == DateUnit::kDay ? "date32[day]" : "date64[ms]";
    case TypeId::kTime:
      return "time" + to_string(type.bit_width) + "[" + std::string(TimeUnitName(type.time_unit)) + "]";
    case TypeId::kTimestamp:
      return "timestamp[" + std::string(TimeUnitName(type.time_unit)) +
             (type.timezone.empty() ? "" : ", " + type.timezone) + "]";
    case TypeId::kDuration:
      return "duration[" + std::string(TimeUnitName(type.time_unit)) + "]";
    case TypeId::kInterval:
      return type.interval_unit == IntervalUnit::kYearMonth ? "interval[year_month]"
             : type.interval_unit == IntervalUnit::kDayTime ? "interval[day_time]"
                                                            : "interval[month_day_nano]";
    case TypeId::kFixedSizeBinary:
      return "fixed_size_binary[" + to_string(type.byte_width) + "]";
    case TypeId::kFixedSizeList:
      return "fixed_size_list[" + to_string(type.list_size) + "]";
    case TypeId::kMap:
      return type.keys_sorted ? "map[keys_sorted]" : "map";
    case TypeId::kUnion: {
      std::string out = type.union_mode == UnionMode::kSparse ? "sparse_union[" : "dense_union[";
      for (size_t i = 0; i < type.union_type_ids.size(); ++i) {
        out += (i ? ", " : "") + to_string(type.union_type_ids[i]);
      }
      return out + "]";
    }
    default:
      return std::string(TypeIdName(type.id));
  }
}

}  // namespace recflow::arrow_ipc
