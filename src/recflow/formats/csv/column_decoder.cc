// ColumnDecoder implementations: bool, integers, floats, timestamps, utf8 and binary.
#include "recflow/formats/csv/column_decoder_internal.h"

#include <cstdint>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/utf8.h"
#include "recflow/formats/csv/read_options.h"
#include "recflow/columnar/value_parsing.h"

namespace recflow::csv {
namespace {

// The parse function of each value kind.
template <typename T>
bool ParseValue(std::string_view s, T* out) {
  if constexpr (std::is_same_v<T, bool>) {
    return ParseBool(s, out);
  } else if constexpr (std::is_floating_point_v<T>) {
    return ParseFloat(s, out);
  } else {
    return ParseInteger(s, out);
  }
}

// Builders of fixed-size values: T is parsed by ParseValue, or as a timestamp when kTimestamp.
template <typename T, typename Builder, bool kTimestamp = false>
class FixedDecoder final : public ColumnDecoder {
 public:
  explicit FixedDecoder(std::string_view type_name) : type_name_(type_name) {}

  bool Stage(std::string_view value) override {
    if constexpr (kTimestamp) {
      null_ = !ParseTimestampMicros(value, &value_);
      return !null_;
    } else {
      null_ = !ParseValue(value, &value_);
      return !null_;
    }
  }
  void StageNull() override { null_ = true; }
  Status Commit() override { return null_ ? builder_.AppendNull() : builder_.Append(value_); }
  Result<std::shared_ptr<ArrayData>> Finish() override { return builder_.Finish(); }
  bool is_string() const override { return false; }
  std::string_view type_name() const override { return type_name_; }

 private:
  std::string_view type_name_;
  Builder builder_;
  T value_{};
  bool null_ = true;
};

// utf8 (validated) and binary columns.
class StringDecoder final : public ColumnDecoder {
 public:
  explicit StringDecoder(bool utf8) : utf8_(utf8), builder_(utf8 ? recflow::utf8() : binary()) {}

  bool Stage(std::string_view value) override {
    if (utf8_ && !IsValidUtf8(value)) return false;
    value_ = value;
    null_ = false;
    return true;
  }
  void StageNull() override { null_ = true; }
  Status Commit() override { return null_ ? builder_.AppendNull() : builder_.Append(value_); }
  Result<std::shared_ptr<ArrayData>> Finish() override { return builder_.Finish(); }
  bool is_string() const override { return true; }
  std::string_view type_name() const override { return utf8_ ? "utf8 (invalid UTF-8)" : "binary"; }

 private:
  bool utf8_;
  BinaryBuilder builder_;
  std::string_view value_;
  bool null_ = true;
};

template <typename T>
std::unique_ptr<ColumnDecoder> MakeNumeric(std::string_view name) {
  return std::make_unique<FixedDecoder<T, NumericBuilder<T>>>(name);
}

}  // namespace

Result<std::unique_ptr<ColumnDecoder>> ColumnDecoder::Make(const Field& field) {
  if (IsTimestampField(field)) {
    return std::unique_ptr<ColumnDecoder>(
        std::make_unique<FixedDecoder<int64_t, Int64Builder, true>>("timestamp"));
  }
  switch (field.type()->id()) {
    case TypeId::kBool:
      return std::unique_ptr<ColumnDecoder>(std::make_unique<FixedDecoder<bool, BooleanBuilder>>("bool"));
    case TypeId::kInt8:
      return MakeNumeric<int8_t>("int8");
    case TypeId::kInt16:
      return MakeNumeric<int16_t>("int16");
    case TypeId::kInt32:
      return MakeNumeric<int32_t>("int32");
    case TypeId::kInt64:
      return MakeNumeric<int64_t>("int64");
    case TypeId::kUInt8:
      return MakeNumeric<uint8_t>("uint8");
    case TypeId::kUInt16:
      return MakeNumeric<uint16_t>("uint16");
    case TypeId::kUInt32:
      return MakeNumeric<uint32_t>("uint32");
    case TypeId::kUInt64:
      return MakeNumeric<uint64_t>("uint64");
    case TypeId::kFloat32:
      return MakeNumeric<float>("float32");
    case TypeId::kFloat64:
      return MakeNumeric<double>("float64");
    case TypeId::kUtf8:
      return std::unique_ptr<ColumnDecoder>(std::make_unique<StringDecoder>(true));
    case TypeId::kBinary:
      return std::unique_ptr<ColumnDecoder>(std::make_unique<StringDecoder>(false));
    default:
      return Status::InvalidArgument("csv cannot read column '" + field.name() + "' of type " +
                                     field.type()->ToString());
  }
}

}  // namespace recflow::csv
