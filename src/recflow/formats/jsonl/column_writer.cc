// ColumnWriter and its kinds: bool, integers, floats, strings, timestamps, lists and structs.
#include "recflow/formats/jsonl/column_writer_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/columnar/value_parsing.h"
#include "recflow/formats/jsonl/non_finite_text.h"

namespace recflow::jsonl {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

const char* KindName(element_type type) {
  switch (type) {
    case element_type::ARRAY:
      return "an array";
    case element_type::OBJECT:
      return "an object";
    case element_type::INT64:
    case element_type::UINT64:
      return "an integer";
    case element_type::DOUBLE:
      return "a fractional number";
    case element_type::STRING:
      return "a string";
    case element_type::BOOL:
      return "a boolean";
    case element_type::NULL_VALUE:
      break;
  }
  return "null";
}

class BoolWriter final : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  Status CheckValue(element value) override {
    return value.type() == element_type::BOOL ? Status::OK() : Mismatch(value, "bool");
  }
  Status AppendValue(element value) override {
    return static_cast<BooleanBuilder*>(builder_)->Append(value.get_bool().value_unsafe());
  }
};

// Integer columns take JSON integers within T's range.
template <typename T>
class IntWriter final : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  Status CheckValue(element value) override {
    T out;
    if (value.type() != element_type::INT64 && value.type() != element_type::UINT64) {
      return Mismatch(value, TypeIdName(CTypeTraits<T>::kTypeId));
    }
    if (!Convert(value, &out)) {
      return Error("integer " + simdjson::to_string(value) + " out of range for " +
                   TypeIdName(CTypeTraits<T>::kTypeId));
    }
    return Status::OK();
  }
  Status AppendValue(element value) override {
    T out{};
    Convert(value, &out);
    return static_cast<NumericBuilder<T>*>(builder_)->Append(out);
  }

 private:
  static bool Convert(element value, T* out) {
    if (value.type() == element_type::UINT64) {
      const uint64_t u = value.get_uint64().value_unsafe();
      if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return false;
      *out = static_cast<T>(u);
      return true;
    }
    const int64_t i = value.get_int64().value_unsafe();
    if constexpr (std::is_signed_v<T>) {
      if (i < std::numeric_limits<T>::min() || i > std::numeric_limits<T>::max()) return false;
    } else {
      if (i < 0 || static_cast<uint64_t>(i) > std::numeric_limits<T>::max()) return false;
    }
    *out = static_cast<T>(i);
    return true;
  }
};

// Float columns take any JSON number that rounds to a finite value of the column's type
// (float32's largest, 3.4028235e38 as written by shortest-form printers, rounds down to it), and
// the strings "NaN", "Infinity" and "-Infinity" JsonWriter writes for the values JSON lacks.
template <typename T>
class FloatWriter final : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  Status CheckValue(element value) override {
    if (NonFinite(value)) return Status::OK();
    if (!value.is_number()) return Mismatch(value, TypeIdName(CTypeTraits<T>::kTypeId));
    if (!(std::fabs(ToDouble(value)) < RoundsToInfinityAt())) {
      return Error("number " + simdjson::to_string(value) + " out of range for " +
                   TypeIdName(CTypeTraits<T>::kTypeId));
    }
    return Status::OK();
  }
  Status AppendValue(element value) override {
    if (const std::optional<double> spelled = NonFinite(value)) {
      return static_cast<NumericBuilder<T>*>(builder_)->Append(static_cast<T>(*spelled));
    }
    // Clamp first: converting a double beyond the type's largest value is undefined behaviour.
    constexpr double kMax = static_cast<double>(std::numeric_limits<T>::max());
    const double clamped = std::clamp(ToDouble(value), -kMax, kMax);
    return static_cast<NumericBuilder<T>*>(builder_)->Append(static_cast<T>(clamped));
  }

 private:
  /// The smallest magnitude that rounds to infinity: the largest finite value plus half a unit
  /// in its last place (for double, infinity itself).
  static double RoundsToInfinityAt() {
    constexpr T kMax = std::numeric_limits<T>::max();
    if constexpr (std::is_same_v<T, double>) {
      return std::numeric_limits<double>::infinity();
    } else {
      return static_cast<double>(kMax) + (static_cast<double>(kMax) - static_cast<double>(std::nextafter(kMax, T{0}))) / 2;
    }
  }

  /// The value a string among "NaN", "Infinity", "-Infinity" spells; nullopt for anything else.
  static std::optional<double> NonFinite(element value) {
    std::string_view text;
    if (value.get_string().get(text)) return std::nullopt;
    return ParseNonFiniteText(text);
  }

  static double ToDouble(element value) {
    switch (value.type()) {
      case element_type::INT64:
        return static_cast<double>(value.get_int64().value_unsafe());
      case element_type::UINT64:
        return static_cast<double>(value.get_uint64().value_unsafe());
      default:
        return value.get_double().value_unsafe();
    }
  }
};

// utf8 and binary columns take strings as they are and any other value as its JSON text.
class StringWriter final : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  Status CheckValue(element value) override { return Status::OK(); }
  Status AppendValue(element value) override {
    auto* builder = static_cast<BinaryBuilder*>(builder_);
    std::string_view text;
    if (!value.get_string().get(text)) return builder->Append(text);
    return builder->Append(simdjson::to_string(value));
  }
};

// Timestamp columns take ISO-8601 strings (ParseTimestampMicros).
class TimestampWriter final : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  Status CheckValue(element value) override {
    int64_t micros;
    if (value.type() != element_type::STRING) return Mismatch(value, "timestamp");
    if (!Parse(value, &micros)) return Error("cannot parse " + simdjson::to_string(value) + " as timestamp");
    return Status::OK();
  }
  Status AppendValue(element value) override {
    int64_t micros = 0;
    Parse(value, &micros);
    return static_cast<Int64Builder*>(builder_)->Append(micros);
  }

 private:
  static bool Parse(element value, int64_t* micros) {
    std::string_view text;
    return !value.get_string().get(text) && ParseTimestampMicros(text, micros);
  }
};

class ListWriter final : public ColumnWriter {
 public:
  ListWriter(ArrayBuilder* builder, std::string path, bool nullable, std::unique_ptr<ColumnWriter> item)
      : ColumnWriter(builder, std::move(path), nullable), item_(std::move(item)) {}
  Status CheckValue(element value) override {
    simdjson::dom::array array;
    if (value.get_array().get(array)) return Mismatch(value, "a list");
    for (const element e : array) RETURN_NOT_OK(item_->Check(&e));
    return Status::OK();
  }
  Status AppendValue(element value) override {
    RETURN_NOT_OK(static_cast<ListBuilder*>(builder_)->Append());
    const simdjson::dom::array array = value.get_array().value_unsafe();
    for (const element e : array) RETURN_NOT_OK(item_->Append(&e));
    return Status::OK();
  }

 private:
  std::unique_ptr<ColumnWriter> item_;
};

// Structs: each member's value is looked up by key (the last of duplicate keys wins). The
// record itself is a StructWriter without a builder of its own (its members fill the columns).
class StructWriter final : public ColumnWriter {
 public:
  StructWriter(ArrayBuilder* builder, std::string path, bool nullable,
               std::vector<std::unique_ptr<ColumnWriter>> members, const std::vector<FieldPtr>& fields)
      : ColumnWriter(builder, std::move(path), nullable), members_(std::move(members)), slots_(members_.size()) {
    for (size_t i = 0; i < fields.size(); ++i) index_.try_emplace(fields[i]->name(), i);
  }
  Status CheckValue(element value) override {
    simdjson::dom::object object;
    if (value.get_object().get(object)) return Mismatch(value, "a struct");
    Collect(object);
    for (size_t i = 0; i < members_.size(); ++i) RETURN_NOT_OK(members_[i]->Check(Slot(i)));
    return Status::OK();
  }
  Status AppendValue(element value) override {
    if (builder_ != nullptr) RETURN_NOT_OK(static_cast<StructBuilder*>(builder_)->Append());
    Collect(value.get_object().value_unsafe());
    for (size_t i = 0; i < members_.size(); ++i) RETURN_NOT_OK(members_[i]->Append(Slot(i)));
    return Status::OK();
  }

 private:
  // Fills slots_ with this object's member values. Each member's Check/Append finishes before
  // this writer's next Collect, and no member shares this writer, so slots_ can be reused.
  void Collect(simdjson::dom::object object) {
    for (auto& slot : slots_) slot.reset();
    for (const auto field : object) {
      const auto it = index_.find(field.key);
      if (it != index_.end()) slots_[it->second] = field.value;
    }
  }
  const element* Slot(size_t i) const { return slots_[i].has_value() ? &*slots_[i] : nullptr; }

  std::vector<std::unique_ptr<ColumnWriter>> members_;
  std::vector<std::optional<element>> slots_;
  std::unordered_map<std::string_view, size_t> index_;  // views of the schema's field names
};

}  // namespace

Status ColumnWriter::Check(const element* value) {
  if (value == nullptr || value->is_null()) {
    if (nullable_) return Status::OK();
    return Error(value == nullptr ? "missing in a non-nullable field" : "null in a non-nullable field");
  }
  return CheckValue(*value);
}

Status ColumnWriter::Append(const element* value) {
  if (value == nullptr || value->is_null()) return builder_->AppendNull();
  return AppendValue(*value);
}

Status ColumnWriter::Error(const std::string& message) const {
  return Status::DataError("field '" + path_ + "': " + message).WithField(path_);
}

Status ColumnWriter::Mismatch(element value, const char* expected) const {
  return Error(std::string("expected ") + expected + ", found " + KindName(value.type()));
}

Result<std::unique_ptr<ColumnWriter>> ColumnWriter::Make(const Field& field, ArrayBuilder* builder, std::string path) {
  const bool nullable = field.nullable();
  switch (field.type()->id()) {
    case TypeId::kBool:
      return std::make_unique<BoolWriter>(builder, std::move(path), nullable);
    case TypeId::kInt8:
      return std::make_unique<IntWriter<int8_t>>(builder, std::move(path), nullable);
    case TypeId::kInt16:
      return std::make_unique<IntWriter<int16_t>>(builder, std::move(path), nullable);
    case TypeId::kInt32:
      return std::make_unique<IntWriter<int32_t>>(builder, std::move(path), nullable);
    case TypeId::kInt64:
      if (IsTimestampField(field)) return std::make_unique<TimestampWriter>(builder, std::move(path), nullable);
      return std::make_unique<IntWriter<int64_t>>(builder, std::move(path), nullable);
    case TypeId::kUInt8:
      return std::make_unique<IntWriter<uint8_t>>(builder, std::move(path), nullable);
    case TypeId::kUInt16:
      return std::make_unique<IntWriter<uint16_t>>(builder, std::move(path), nullable);
    case TypeId::kUInt32:
      return std::make_unique<IntWriter<uint32_t>>(builder, std::move(path), nullable);
    case TypeId::kUInt64:
      return std::make_unique<IntWriter<uint64_t>>(builder, std::move(path), nullable);
    case TypeId::kFloat32:
      return std::make_unique<FloatWriter<float>>(builder, std::move(path), nullable);
    case TypeId::kFloat64:
      return std::make_unique<FloatWriter<double>>(builder, std::move(path), nullable);
    case TypeId::kBinary:
    case TypeId::kUtf8:
      return std::make_unique<StringWriter>(builder, std::move(path), nullable);
    case TypeId::kList: {
      auto* list_builder = static_cast<ListBuilder*>(builder);
      ASSIGN_OR_RETURN(auto item, Make(*field.type()->fields()[0], list_builder->value_builder(), path + "[]"));
      return std::make_unique<ListWriter>(builder, std::move(path), nullable, std::move(item));
    }
    case TypeId::kStruct: {
      auto* struct_builder = static_cast<StructBuilder*>(builder);
      const auto& fields = field.type()->fields();
      std::vector<std::unique_ptr<ColumnWriter>> members;
      for (size_t i = 0; i < fields.size(); ++i) {
        ASSIGN_OR_RETURN(auto member, Make(*fields[i], struct_builder->field_builder(static_cast<int>(i)),
                                           path + "." + fields[i]->name()));
        members.push_back(std::move(member));
      }
      return std::make_unique<StructWriter>(builder, std::move(path), nullable, std::move(members), fields);
    }
    default:  // null and Arrow's other types (ReadOptions::Validate refuses them)
      break;
  }
  return Status::InvalidArgument("jsonl cannot read field '" + field.name() + "' of type " + field.type()->ToString());
}


Result<std::unique_ptr<ColumnWriter>> ColumnWriter::MakeRecord(const Schema& schema,
                                                               const std::vector<ArrayBuilder*>& builders) {
  std::vector<std::unique_ptr<ColumnWriter>> members;
  for (int i = 0; i < schema.num_fields(); ++i) {
    const Field& field = *schema.field(i);
    ASSIGN_OR_RETURN(auto member, Make(field, builders[static_cast<size_t>(i)], field.name()));
    members.push_back(std::move(member));
  }
  return std::make_unique<StructWriter>(nullptr, std::string(), false, std::move(members), schema.fields());
}

}  // namespace recflow::jsonl
