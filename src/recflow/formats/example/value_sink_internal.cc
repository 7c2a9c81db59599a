// ValueSink: kind conversions, range and UTF-8 checks, and bulk appends into leaf builders.
#include "recflow/formats/example/value_sink_internal.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <string>

#include "recflow/columnar/utf8.h"
#include "recflow/formats/example/message_internal.h"

namespace recflow::example {

using wire::Span;

int FormatInt64(int64_t v, char* buf) { return static_cast<int>(std::to_chars(buf, buf + 32, v).ptr - buf); }

int FormatFloat(float v, char* buf) { return static_cast<int>(std::to_chars(buf, buf + 32, v).ptr - buf); }

namespace {

Status KindMismatch(FeatureKind kind, TypeId id) {
  return Status::TypeError(std::string(FeatureKindName(kind)) + " values cannot be stored in a " + TypeIdName(id) +
                           " column");
}

template <typename T>
Status CheckRange(const Span* lists, size_t n) {
  bool ok = true;
  int64_t bad = 0;
  msg::ForEachInt64(lists, n, [&](int64_t v) {
    bool fits;
    if constexpr (std::is_signed_v<T>) {
      fits = v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max();
    } else {
      fits = v >= 0 && static_cast<uint64_t>(v) <= std::numeric_limits<T>::max();
    }
    if (!fits && ok) {
      ok = false;
      bad = v;
    }
  });
  if (ok) return Status::OK();
  return Status::TypeError("value " + std::to_string(bad) + " is out of range for " +
                           TypeIdName(CTypeTraits<T>::kTypeId));
}

// float32 from FloatList: each packed run is one copy (AppendValues, which does not pre-zero,
// when the run happens to be 4-byte aligned).
Status AppendFloatRuns(Float32Builder* b, const Span* lists, size_t n) {
  Status st;
  msg::ForEachFloatRun(lists, n, [&](const uint8_t* p, int64_t k) {
    if (!st.ok()) return;
    if (reinterpret_cast<uintptr_t>(p) % alignof(float) == 0) {
      st = b->AppendValues(reinterpret_cast<const float*>(p), k);
      return;
    }
    float* out;
    st = b->AppendUninitialized(k, &out);
    if (st.ok()) std::memcpy(out, p, static_cast<size_t>(k) * 4);
  });
  return st;
}

template <typename T>
Status AppendNumbers(ArrayBuilder* leaf, FeatureKind kind, const Span* lists, size_t n, int64_t count) {
  if constexpr (std::is_same_v<T, float>) {
    if (kind == FeatureKind::kFloatList) return AppendFloatRuns(static_cast<Float32Builder*>(leaf), lists, n);
  }
  T* out;
  RETURN_NOT_OK(static_cast<NumericBuilder<T>*>(leaf)->AppendUninitialized(count, &out));
  if (kind == FeatureKind::kInt64List) {
    msg::ForEachInt64(lists, n, [&out](int64_t v) { *out++ = static_cast<T>(v); });
  } else {
    msg::ForEachFloat(lists, n, [&out](float v) { *out++ = static_cast<T>(v); });
  }
  return Status::OK();
}

}  // namespace

Status ValueSink::Check(FeatureKind kind, const Span* lists, size_t n, int64_t count) {
  if (count == 0) return Status::OK();
  pending_values_ += count;
  if (leaf_->length() + pending_values_ > kMaxInt32Offset) {
    return Status::DataError("the column would exceed 2^31-1 values in one batch");
  }
  switch (id_) {
    case TypeId::kBool:
    case TypeId::kInt64:
      return kind == FeatureKind::kInt64List ? Status::OK() : KindMismatch(kind, id_);
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return kind != FeatureKind::kBytesList ? Status::OK() : KindMismatch(kind, id_);
    case TypeId::kBinary:
    case TypeId::kUtf8:
      return CheckBinary(kind, lists, n);
    default:
      break;
  }
  if (kind != FeatureKind::kInt64List) return KindMismatch(kind, id_);
  switch (id_) {
    case TypeId::kInt8:
      return CheckRange<int8_t>(lists, n);
    case TypeId::kInt16:
      return CheckRange<int16_t>(lists, n);
    case TypeId::kInt32:
      return CheckRange<int32_t>(lists, n);
    case TypeId::kUInt8:
      return CheckRange<uint8_t>(lists, n);
    case TypeId::kUInt16:
      return CheckRange<uint16_t>(lists, n);
    case TypeId::kUInt32:
      return CheckRange<uint32_t>(lists, n);
    case TypeId::kUInt64:
      return CheckRange<uint64_t>(lists, n);
    default:
      return Status::Internal("unsupported leaf type");
  }
}

Status ValueSink::CheckBinary(FeatureKind kind, const Span* lists, size_t n) {
  int64_t bytes = 0;
  bool utf8_ok = true;
  char buf[32];
  if (kind == FeatureKind::kBytesList) {
    const bool check_utf8 = id_ == TypeId::kUtf8;
    msg::ForEachBytes(lists, n, [&](Span s) {
      bytes += s.size();
      if (check_utf8 && utf8_ok) utf8_ok = IsValidUtf8(s.begin, s.size());
    });
  } else if (kind == FeatureKind::kInt64List) {
    msg::ForEachInt64(lists, n, [&](int64_t v) { bytes += FormatInt64(v, buf); });
  } else {
    msg::ForEachFloat(lists, n, [&](float v) { bytes += FormatFloat(v, buf); });
  }
  if (!utf8_ok) return Status::DataError("bytes_list value is not valid UTF-8 (utf8 column)");
  pending_bytes_ += bytes;
  if (static_cast<BinaryBuilder*>(leaf_)->value_data_length() + pending_bytes_ > kMaxInt32Offset) {
    return Status::DataError("the column would exceed 2^31-1 bytes in one batch");
  }
  return Status::OK();
}

Status ValueSink::Append(FeatureKind kind, const Span* lists, size_t n, int64_t count) {
  if (count == 0) return Status::OK();
  switch (id_) {
    case TypeId::kBool: {
      auto* b = static_cast<BooleanBuilder*>(leaf_);
      RETURN_NOT_OK(b->Reserve(count));
      msg::ForEachInt64(lists, n, [b](int64_t v) { b->UnsafeAppend(v != 0); });
      return Status::OK();
    }
    case TypeId::kInt8:
      return AppendNumbers<int8_t>(leaf_, kind, lists, n, count);
    case TypeId::kInt16:
      return AppendNumbers<int16_t>(leaf_, kind, lists, n, count);
    case TypeId::kInt32:
      return AppendNumbers<int32_t>(leaf_, kind, lists, n, count);
    case TypeId::kInt64:
      return AppendNumbers<int64_t>(leaf_, kind, lists, n, count);
    case TypeId::kUInt8:
      return AppendNumbers<uint8_t>(leaf_, kind, lists, n, count);
    case TypeId::kUInt16:
      return AppendNumbers<uint16_t>(leaf_, kind, lists, n, count);
    case TypeId::kUInt32:
      return AppendNumbers<uint32_t>(leaf_, kind, lists, n, count);
    case TypeId::kUInt64:
      return AppendNumbers<uint64_t>(leaf_, kind, lists, n, count);
    case TypeId::kFloat32:
      return AppendNumbers<float>(leaf_, kind, lists, n, count);
    case TypeId::kFloat64:
      return AppendNumbers<double>(leaf_, kind, lists, n, count);
    default:
      return AppendBinary(kind, lists, n, count);
  }
}

Status ValueSink::AppendBinary(FeatureKind kind, const Span* lists, size_t n, int64_t count) {
  auto* b = static_cast<BinaryBuilder*>(leaf_);
  RETURN_NOT_OK(b->Reserve(count));
  Status st;
  char buf[32];
  if (kind == FeatureKind::kBytesList) {
    msg::ForEachBytes(lists, n, [&](Span s) {
      if (st.ok()) st = b->Append(s.begin, s.size());
    });
  } else if (kind == FeatureKind::kInt64List) {
    msg::ForEachInt64(lists, n, [&](int64_t v) {
      if (st.ok()) st = b->Append(reinterpret_cast<const uint8_t*>(buf), FormatInt64(v, buf));
    });
  } else {
    msg::ForEachFloat(lists, n, [&](float v) {
      if (st.ok()) st = b->Append(reinterpret_cast<const uint8_t*>(buf), FormatFloat(v, buf));
    });
  }
  return st;
}

}  // namespace recflow::example
