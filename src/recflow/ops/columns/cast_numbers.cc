// CastNumbers: integers, floats, bool, date32 and timestamp storage values among each other.
#include <string>

#include "recflow/columnar/value_formatting.h"
#include "recflow/ops/columns/cast_internal.h"

namespace recflow::ops::internal {

namespace {

template <typename From>
std::string NumberText(From x) {
  std::string text;
  if constexpr (std::is_same_v<From, bool>) {
    text = x ? "true" : "false";
  } else if constexpr (std::is_floating_point_v<From>) {
    AppendFloat(x, &text);
  } else {
    AppendInteger(x, &text);
  }
  return text;
}

template <typename From>
From ReadValue(const ArrayData& in, int64_t i) {
  if constexpr (std::is_same_v<From, bool>) {
    return bit_util::GetBit(in.buffers[1]->data(), in.offset + i);
  } else {
    return in.GetValues<From>(1)[i];
  }
}

template <typename To, typename From, typename Builder>
Status CastLoop(const ArrayData& in, Builder& builder, RowErrors& errors) {
  RETURN_NOT_OK(builder.Reserve(in.length));
  for (int64_t i = 0; i < in.length; ++i) {
    if (!IsValidAt(in, i)) {
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    const From x = ReadValue<From>(in, i);
    To value{};
    if (const char* why = ConvertNumber<To, From>(x, &value)) {
      errors.Add(i, Status::DataError("cannot cast " + NumberText(x) + " to " + builder.type()->ToString() + ": " + why));
      RETURN_NOT_OK(builder.AppendNull());
    } else {
      RETURN_NOT_OK(builder.Append(value));
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::shared_ptr<ArrayData>> CastNumbers(const ArrayData& in, const DataTypePtr& to, RowErrors& errors) {
  ASSIGN_OR_RETURN(std::unique_ptr<ArrayBuilder> builder, MakeBuilder(to));
  Status status;
  VisitStorageType(to->id(), [&](auto to_tag) {
    using To = decltype(to_tag);
    using Builder = std::conditional_t<std::is_same_v<To, bool>, BooleanBuilder, NumericBuilder<To>>;
    auto& typed = static_cast<Builder&>(*builder);
    VisitStorageType(in.type->id(), [&](auto from_tag) {
      status = CastLoop<To, decltype(from_tag)>(in, typed, errors);
    });
  });
  RETURN_NOT_OK(status);
  return builder->Finish();
}

}  // namespace recflow::ops::internal
