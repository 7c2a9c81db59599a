// WireWriter: builds protobuf wire encodings by hand, including the unusual ones libprotobuf accepts.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace recflow::interop {

/// Protobuf wire types.
enum class WireType : uint8_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

/// Appends protobuf wire primitives to a byte string. Nothing is validated, on purpose: tests
/// use it to write encodings no serializer would produce (unpacked runs, overlong varints,
/// map entries with the value first, unknown fields, truncated data).
class WireWriter {
 public:
  /// Appends a varint, padded with continuation bytes to at least `min_bytes` (overlong forms).
  WireWriter& Varint(uint64_t value, int min_bytes = 1);
  /// Appends the tag of field `number` with `type`.
  WireWriter& Tag(uint32_t number, WireType type);
  /// Appends 4 / 8 little-endian bytes.
  WireWriter& Fixed32(uint32_t value);
  WireWriter& Fixed64(uint64_t value);
  /// Appends raw bytes.
  WireWriter& Raw(std::string_view bytes);

  /// Field `number` as a varint (int64 values are sign-extended to 10 bytes when negative).
  WireWriter& VarintField(uint32_t number, uint64_t value);
  /// Field `number` as a float (wire type fixed32).
  WireWriter& FloatField(uint32_t number, float value);
  /// Field `number` as length-delimited `payload`.
  WireWriter& BytesField(uint32_t number, std::string_view payload);
  /// Field `number` as a packed run of varints.
  WireWriter& PackedVarints(uint32_t number, std::initializer_list<int64_t> values);
  /// Field `number` as a packed run of floats.
  WireWriter& PackedFloats(uint32_t number, std::initializer_list<float> values);
  /// One unknown field of every wire type (varint, fixed64, bytes, group with a nested field,
  /// fixed32), numbered from `first_number` up.
  WireWriter& UnknownFieldsOfEveryType(uint32_t first_number);

  /// The bytes written so far.
  const std::string& bytes() const { return bytes_; }
  /// Moves the bytes out.
  std::string Take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

/// Shorthand for building nested messages inline: Msg().VarintField(...).Take().
inline WireWriter Msg() { return WireWriter(); }

}  // namespace recflow::interop
