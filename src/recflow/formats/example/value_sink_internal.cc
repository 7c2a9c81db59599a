// ValueSink: one walk over a Feature's list messages — wire validation, kind conversions, range and UTF-8 checks, appends.
#include "recflow/formats/example/value_sink_internal.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "recflow/columnar/utf8.h"
#include "recflow/formats/example/message_internal.h"

namespace recflow::example {

using wire::Span;

int FormatInt64(int64_t v, char* buf) { return static_cast<int>(std::to_chars(buf, buf + 32, v).ptr - buf); }

int FormatFloat(float v, char* buf) { return static_cast<int>(std::to_chars(buf, buf + 32, v).ptr - buf); }

namespace {

template <typename T>
bool InRange(int64_t v) {
  if constexpr (std::is_signed_v<T>) {
    return v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max();
  } else {
    return v >= 0 && static_cast<uint64_t>(v) <= std::numeric_limits<T>::max();
  }
}

}  // namespace

bool ValueSink::Fits(FeatureKind kind) const {
  switch (id_) {
    case TypeId::kBinary:
    case TypeId::kUtf8:
      return true;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return kind != FeatureKind::kBytesList;
    default:
      return kind == FeatureKind::kInt64List;
  }
}

Status ValueSink::AppendList(const Span& list, int depth) {
  if (!fits_) [[unlikely]] {
    int64_t n;
    RETURN_NOT_OK(msg::ScanList(kind_, list, depth, &n));
    skipped_ += n;
    return Status::OK();
  }
  return msg::ForEachRun(kind_, list, depth, [this](Span run, int64_t count) { return AppendRun(run, count); });
}

template <typename T>
T ValueSink::FromInt64(uint64_t raw) {
  const auto v = static_cast<int64_t>(raw);
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, int64_t>) {
    if (!InRange<T>(v) && bad_value_ == BadValue::kNone) [[unlikely]] {
      bad_value_ = BadValue::kRange;
      bad_int_ = v;
    }
  }
  return static_cast<T>(v);
}

template <typename T>
Status ValueSink::AppendInts(Span run, int64_t count) {
  auto* b = static_cast<NumericBuilder<T>*>(leaf_);
  const uint8_t* p = run.begin;
  if (count == 1) return b->Append(FromInt64<T>(wire::DecodeVarintUnchecked(p)));  // inline, for scalars
  T* out;
  RETURN_NOT_OK(b->AppendUninitialized(count, &out));
  for (int64_t i = 0; i < count; ++i) out[i] = FromInt64<T>(wire::DecodeVarintUnchecked(p));
  return Status::OK();
}

template <typename T>
Status ValueSink::AppendFloats(Span run, int64_t count) {
  auto* b = static_cast<NumericBuilder<T>*>(leaf_);
  float f;
  if (count == 1) {  // inline, for scalars
    std::memcpy(&f, run.begin, 4);
    return b->Append(static_cast<T>(f));
  }
  T* out;
  RETURN_NOT_OK(b->AppendUninitialized(count, &out));
  if constexpr (std::is_same_v<T, float>) {
    std::memcpy(out, run.begin, static_cast<size_t>(count) * 4);
  } else {
    for (int64_t i = 0; i < count; ++i) {
      std::memcpy(&f, run.begin + 4 * i, 4);
      out[i] = f;
    }
  }
  return Status::OK();
}

Status ValueSink::AppendBytes(const uint8_t* data, int64_t n) {
  auto* b = static_cast<BinaryBuilder*>(leaf_);
  if (b->value_data_length() + n > kMaxInt32Offset) [[unlikely]] {
    bytes_overflow_ = true;
    ++skipped_;
    return Status::OK();
  }
  return b->Append(data, n);
}

Status ValueSink::AppendRun(Span run, int64_t count) {
  if (count == 0) return Status::OK();  // an empty packed run
  char buf[32];
  switch (kind_) {
    case FeatureKind::kInt64List:
      switch (id_) {
        case TypeId::kBool: {
          auto* b = static_cast<BooleanBuilder*>(leaf_);
          RETURN_NOT_OK(b->Reserve(count));
          const uint8_t* p = run.begin;
          for (int64_t i = 0; i < count; ++i) b->UnsafeAppend(wire::DecodeVarintUnchecked(p) != 0);
          return Status::OK();
        }
        case TypeId::kInt8:
          return AppendInts<int8_t>(run, count);
        case TypeId::kInt16:
          return AppendInts<int16_t>(run, count);
        case TypeId::kInt32:
          return AppendInts<int32_t>(run, count);
        case TypeId::kInt64:
          return AppendInts<int64_t>(run, count);
        case TypeId::kUInt8:
          return AppendInts<uint8_t>(run, count);
        case TypeId::kUInt16:
          return AppendInts<uint16_t>(run, count);
        case TypeId::kUInt32:
          return AppendInts<uint32_t>(run, count);
        case TypeId::kUInt64:
          return AppendInts<uint64_t>(run, count);
        case TypeId::kFloat32:
          return AppendInts<float>(run, count);
        case TypeId::kFloat64:
          return AppendInts<double>(run, count);
        default: {  // binary, utf8: decimal text
          const uint8_t* p = run.begin;
          for (int64_t i = 0; i < count; ++i) {
            const int n = FormatInt64(static_cast<int64_t>(wire::DecodeVarintUnchecked(p)), buf);
            RETURN_NOT_OK(AppendBytes(reinterpret_cast<const uint8_t*>(buf), n));
          }
          return Status::OK();
        }
      }
    case FeatureKind::kFloatList:
      if (id_ == TypeId::kFloat32) return AppendFloats<float>(run, count);
      if (id_ == TypeId::kFloat64) return AppendFloats<double>(run, count);
      for (int64_t i = 0; i < count; ++i) {  // binary, utf8: shortest round-trip text
        float f;
        std::memcpy(&f, run.begin + 4 * i, 4);
        const int n = FormatFloat(f, buf);
        RETURN_NOT_OK(AppendBytes(reinterpret_cast<const uint8_t*>(buf), n));
      }
      return Status::OK();
    default:  // BytesList: one value
      if (id_ == TypeId::kUtf8 && !IsValidUtf8(run.begin, run.size()) && bad_value_ == BadValue::kNone) {
        bad_value_ = BadValue::kUtf8;
      }
      return AppendBytes(run.begin, run.size());
  }
}

Status ValueSink::FeatureError() const {
  if (count() == 0) return Status::OK();
  if (leaf_->length() + skipped_ > kMaxInt32Offset) {
    return Status::DataError("the column would exceed 2^31-1 values in one batch");
  }
  if (!fits_) {
    return Status::TypeError(std::string(FeatureKindName(kind_)) + " values cannot be stored in a " +
                             TypeIdName(id_) + " column");
  }
  if (bad_value_ == BadValue::kRange) {
    return Status::TypeError("value " + std::to_string(bad_int_) + " is out of range for " + TypeIdName(id_));
  }
  if (bad_value_ == BadValue::kUtf8) return Status::DataError("bytes_list value is not valid UTF-8 (utf8 column)");
  if (bytes_overflow_) return Status::DataError("the column would exceed 2^31-1 bytes in one batch");
  return Status::OK();
}

}  // namespace recflow::example
