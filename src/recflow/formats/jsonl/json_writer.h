// JsonWriter: a small streaming JSON writer (used by `recflow cat` and the JSON Lines output format).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace recflow::jsonl {

/// Standard base64 (RFC 4648, with '=' padding) of `bytes`.
std::string Base64Encode(std::string_view bytes);

/// Appends JSON text to a string, inserting commas and colons itself.
///
/// Conventions (user-visible through `recflow cat`, `--json` and JSON Lines output):
/// - strings are escaped per RFC 8259: `"` `\` and control characters (U+0000..U+001F, as
///   \n \t ... or \u00XX); valid non-ASCII UTF-8 passes through unescaped;
/// - floats print in the shortest form that reads back to the same float32 (Float) or
///   float64 (Double) value, e.g. 0.1f prints `0.1` (AppendFloat, as CSV output);
/// - JSON has no NaN or infinities, so they print as the strings "NaN", "Infinity" and
///   "-Infinity" (non_finite_text.h), which JsonlReader reads back into float columns;
/// - bytes print as a string when they are valid UTF-8, else as {"$base64": "..."}.
/// The writer does not check that calls form a valid document; callers nest correctly.
class JsonWriter {
 public:
  /// Writes into `*out` (appending); `out` must outlive the writer.
  explicit JsonWriter(std::string* out) : out_(out) {}

  /// Starts an object (`{`).
  void BeginObject();
  /// Ends the innermost object (`}`).
  void EndObject();
  /// Starts an array (`[`).
  void BeginArray();
  /// Ends the innermost array (`]`).
  void EndArray();
  /// Writes an object key; the next value call writes its value.
  void Key(std::string_view key);

  /// A string value. Valid UTF-8 passes through; a string that is not valid UTF-8 (a hostile
  /// feature name) has each byte >= 0x80 escaped as \u00XX, i.e. read as Latin-1.
  void String(std::string_view s);
  /// A bytes value: a string when valid UTF-8, else {"$base64": "..."}.
  void Bytes(std::string_view bytes);
  /// A signed integer value.
  void Int(int64_t v);
  /// An unsigned integer value.
  void UInt(uint64_t v);
  /// A float32 value, shortest round-trip form.
  void Float(float v);
  /// A float64 value, shortest round-trip form.
  void Double(double v);
  /// true / false.
  void Bool(bool v);
  /// null.
  void Null();

  /// The output string.
  std::string* out() const { return out_; }

 private:
  void BeforeValue();
  void Open(char c);
  void Close(char c);
  // Writes `s` quoted and escaped; `utf8` says whether it is valid UTF-8.
  void Quoted(std::string_view s, bool utf8);

  std::string* out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace recflow::jsonl
