// AppendFloat, and FormatTimestamp on the shared timestamp text (value_text.h).
#include "recflow/columnar/value_formatting.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "recflow/columnar/value_text.h"

namespace recflow {
namespace {

template <typename T>
void AppendFloating(T v, std::string* out) {
  if (std::isnan(v)) {
    out->append("nan");  // to_chars would also spell a negative NaN "-nan"
    return;
  }
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, res.ptr);
  // A whole number keeps a fraction (600 → "600.0"), so text readers infer a float again.
  if (std::find_if(buf, res.ptr, [](char c) { return c != '-' && (c < '0' || c > '9'); }) == res.ptr) {
    out->append(".0");
  }
}

}  // namespace

void AppendFloat(float v, std::string* out) { AppendFloating(v, out); }
void AppendFloat(double v, std::string* out) { AppendFloating(v, out); }

Status FormatTimestamp(int64_t micros, char (&text)[kTimestampTextSize]) {
  char full[kMaxTimestampTextBytes];
  ASSIGN_OR_RETURN(const size_t length, FormatTimestampText(micros, TimeUnit::kMicro, /*utc=*/true, full));
  std::memcpy(text, full, length);  // always kTimestampTextSize bytes: six fraction digits and Z
  return Status::OK();
}

}  // namespace recflow
