// JsonWriter, base64 and UTF-8 validation.
#include "recflow/formats/jsonl/json_writer.h"

#include <cmath>

#include "recflow/columnar/utf8.h"
#include "recflow/columnar/value_formatting.h"
#include "recflow/formats/jsonl/non_finite_text.h"

namespace recflow::jsonl {
namespace {

constexpr char kBase64Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kHexDigits[] = "0123456789abcdef";

template <typename T>
void AppendFloating(std::string* out, T v) {
  if (std::isnan(v) || std::isinf(v)) {
    const std::string_view text = std::isnan(v) ? kNanText : v > 0 ? kInfinityText : kNegativeInfinityText;
    out->append("\"").append(text).append("\"");
  } else {
    AppendFloat(v, out);
  }
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16) |
                       (static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out.push_back(kBase64Alphabet[(v >> 18) & 63]);
    out.push_back(kBase64Alphabet[(v >> 12) & 63]);
    out.push_back(kBase64Alphabet[(v >> 6) & 63]);
    out.push_back(kBase64Alphabet[v & 63]);
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (rest == 2) v |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    out.push_back(kBase64Alphabet[(v >> 18) & 63]);
    out.push_back(kBase64Alphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kBase64Alphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_->push_back(',');
    first_.back() = false;
  }
}

void JsonWriter::Open(char c) {
  BeforeValue();
  out_->push_back(c);
  first_.push_back(true);
}

void JsonWriter::Close(char c) {
  out_->push_back(c);
  if (!first_.empty()) first_.pop_back();
}

void JsonWriter::BeginObject() { Open('{'); }
void JsonWriter::EndObject() { Close('}'); }
void JsonWriter::BeginArray() { Open('['); }
void JsonWriter::EndArray() { Close(']'); }

void JsonWriter::Key(std::string_view key) {
  BeforeValue();
  Quoted(key, IsValidUtf8(key));
  out_->push_back(':');
  after_key_ = true;
}

void JsonWriter::Quoted(std::string_view s, bool utf8) {
  out_->push_back('"');
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80 && utf8) {
      out_->push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    switch (c) {
      case '"': out_->append("\\\""); break;
      case '\\': out_->append("\\\\"); break;
      case '\b': out_->append("\\b"); break;
      case '\f': out_->append("\\f"); break;
      case '\n': out_->append("\\n"); break;
      case '\r': out_->append("\\r"); break;
      case '\t': out_->append("\\t"); break;
      default:
        if (c < 0x20 || c >= 0x80) {
          out_->append("\\u00");
          out_->push_back(kHexDigits[c >> 4]);
          out_->push_back(kHexDigits[c & 15]);
        } else {
          out_->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out_->push_back('"');
}

void JsonWriter::String(std::string_view s) {
  BeforeValue();
  Quoted(s, IsValidUtf8(s));
}

void JsonWriter::Bytes(std::string_view bytes) {
  if (IsValidUtf8(bytes)) {
    BeforeValue();
    Quoted(bytes, /*utf8=*/true);
    return;
  }
  BeginObject();
  Key("$base64");
  String(Base64Encode(bytes));
  EndObject();
}

void JsonWriter::Int(int64_t v) {
  BeforeValue();
  AppendInteger(v, out_);
}

void JsonWriter::UInt(uint64_t v) {
  BeforeValue();
  AppendInteger(v, out_);
}

void JsonWriter::Float(float v) {
  BeforeValue();
  AppendFloating(out_, v);
}

void JsonWriter::Double(double v) {
  BeforeValue();
  AppendFloating(out_, v);
}

void JsonWriter::Bool(bool v) {
  BeforeValue();
  out_->append(v ? "true" : "false");
}

void JsonWriter::Null() {
  BeforeValue();
  out_->append("null");
}

}  // namespace recflow::jsonl
