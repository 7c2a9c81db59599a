// ParseText and FormatText: Cast between text columns and numbers, bools, dates and timestamps.
#include <string>

#include "recflow/columnar/element_access.h"
#include "recflow/columnar/utf8.h"
#include "recflow/columnar/value_formatting.h"
#include "recflow/columnar/value_parsing.h"
#include "recflow/columnar/value_text.h"
#include "recflow/ops/columns/cast_internal.h"

namespace recflow::ops::internal {

namespace {

constexpr int64_t kMicrosPerDay = 86'400'000'000;

/// The text quoted for an error message, cut after 40 bytes.
std::string Quoted(std::string_view text) {
  if (text.size() > 40) return "'" + std::string(text.substr(0, 40)) + "...'";
  return "'" + std::string(text) + "'";
}

Status ParseError(std::string_view text, const DataType& to, std::string_view why = {}) {
  std::string message = "cannot parse " + Quoted(text) + " as " + to.ToString();
  if (!why.empty()) message += ": " + std::string(why);
  return Status::DataError(std::move(message));
}

/// Microseconds → `unit`; nullptr on success, else why not.
const char* MicrosToUnit(int64_t micros, TimeUnit unit, int64_t* out) {
  switch (unit) {
    case TimeUnit::kSecond:
      if (micros % 1'000'000 != 0) return "finer than seconds";
      *out = micros / 1'000'000;
      return nullptr;
    case TimeUnit::kMilli:
      if (micros % 1'000 != 0) return "finer than milliseconds";
      *out = micros / 1'000;
      return nullptr;
    case TimeUnit::kMicro: *out = micros; return nullptr;
    case TimeUnit::kNano:
      if (__builtin_mul_overflow(micros, int64_t{1000}, out)) return "out of range";
      return nullptr;
  }
  return "unknown unit";
}

/// Parses one text into a number-like `To` of type `to`: nullptr on success, else why not
/// (an empty string for "not a value of this type").
template <typename To>
const char* ParseValue(std::string_view text, const DataType& to, To* out) {
  if constexpr (std::is_same_v<To, bool>) {
    return ParseBool(text, out) ? nullptr : "";
  } else if constexpr (std::is_floating_point_v<To>) {
    return ParseFloat(text, out) ? nullptr : "";
  } else {
    if (to.id() == TypeId::kDate32 || to.id() == TypeId::kTimestamp) {
      int64_t micros = 0;
      if (!ParseTimestampMicros(text, &micros)) return "";
      int64_t value = 0;
      if (to.id() == TypeId::kTimestamp) {
        if (const char* why = MicrosToUnit(micros, to.params().unit, &value)) return why;
      } else {
        if (micros % kMicrosPerDay != 0) return "not midnight";
        value = micros / kMicrosPerDay;
      }
      return ConvertNumber<To, int64_t>(value, out);
    }
    if (ParseInteger(text, out)) return nullptr;
    double value = 0;
    if (!ParseFloat(text, &value)) return "";
    return ConvertNumber<To, double>(value, out);
  }
}

template <typename To, typename Builder>
Status ParseLoop(const ArrayData& in, Builder& builder, RowErrors& errors) {
  RETURN_NOT_OK(builder.Reserve(in.length));
  for (int64_t i = 0; i < in.length; ++i) {
    if (!IsValidAt(in, i)) {
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    const std::string_view raw = BinaryValue(in, i);
    To value{};
    if (const char* why = ParseValue<To>(TrimSpaces(raw), *builder.type(), &value)) {
      errors.Add(i, ParseError(raw, *builder.type(), why));
      RETURN_NOT_OK(builder.AppendNull());
    } else {
      RETURN_NOT_OK(builder.Append(value));
    }
  }
  return Status::OK();
}

Status CopyText(const ArrayData& in, BinaryBuilder& builder, RowErrors& errors) {
  RETURN_NOT_OK(builder.Reserve(in.length));
  const bool check_utf8 = builder.type()->id() == TypeId::kUtf8 &&
                          (in.type->id() == TypeId::kBinary || in.type->id() == TypeId::kLargeBinary);
  for (int64_t i = 0; i < in.length; ++i) {
    if (!IsValidAt(in, i)) {
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    const std::string_view value = BinaryValue(in, i);
    if (check_utf8 && !IsValidUtf8(value)) {
      errors.Add(i, Status::DataError("cannot cast binary to utf8: invalid UTF-8"));
      RETURN_NOT_OK(builder.AppendNull());
    } else {
      RETURN_NOT_OK(builder.Append(value));
    }
  }
  return Status::OK();
}

/// Appends the text of element `i` of number-like `in` (valid) to `out`.
Status AppendValueText(const ArrayData& in, int64_t i, std::string* out) {
  switch (in.type->id()) {
    case TypeId::kBool: *out += bit_util::GetBit(in.buffers[1]->data(), in.offset + i) ? "true" : "false"; return Status::OK();
    case TypeId::kDate32: AppendDateText(in.GetValues<int32_t>(1)[i], out); return Status::OK();
    case TypeId::kTimestamp:
      AppendTimestampText(in.GetValues<int64_t>(1)[i], in.type->params().unit, !in.type->params().timezone.empty(), out);
      return Status::OK();
    default: break;
  }
  VisitNumericType(in.type->id(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      AppendFloat(in.GetValues<T>(1)[i], out);
    } else {
      AppendInteger(in.GetValues<T>(1)[i], out);
    }
  });
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<ArrayData>> ParseText(const ArrayData& in, const DataTypePtr& to, RowErrors& errors) {
  ASSIGN_OR_RETURN(std::unique_ptr<ArrayBuilder> builder, MakeBuilder(to));
  if (to->is_binary_like()) {
    RETURN_NOT_OK(CopyText(in, static_cast<BinaryBuilder&>(*builder), errors));
    return builder->Finish();
  }
  Status status;
  VisitStorageType(to->id(), [&](auto to_tag) {
    using To = decltype(to_tag);
    using Builder = std::conditional_t<std::is_same_v<To, bool>, BooleanBuilder, NumericBuilder<To>>;
    status = ParseLoop<To>(in, static_cast<Builder&>(*builder), errors);
  });
  RETURN_NOT_OK(status);
  return builder->Finish();
}

Result<std::shared_ptr<ArrayData>> FormatText(const ArrayData& in, const DataTypePtr& to, RowErrors& errors) {
  BinaryBuilder builder(to);
  RETURN_NOT_OK(builder.Reserve(in.length));
  std::string text;
  for (int64_t i = 0; i < in.length; ++i) {
    if (!IsValidAt(in, i)) {
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    text.clear();
    if (Status status = AppendValueText(in, i, &text); !status.ok()) {
      errors.Add(i, status);
      RETURN_NOT_OK(builder.AppendNull());
    } else {
      RETURN_NOT_OK(builder.Append(text));
    }
  }
  return builder.Finish();
}

}  // namespace recflow::ops::internal
