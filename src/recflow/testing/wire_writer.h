// WireWriter: builds protobuf wire encodings by hand, including the unusual ones libprotobuf accepts.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace recflow::testing {

/// Protobuf wire types (the low 3 bits of a tag). recflow_testing may not depend on the
/// formats library, so this mirrors recflow::example::wire::WireType.
enum class WireType : uint8_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

/// Appends protobuf wire primitives to a byte string; every method returns *this for chaining.
/// Nothing is validated, on purpose: tests use it to write encodings no serializer would
/// produce (unpacked runs, overlong varints, map entries with the value first, unknown fields,
/// truncated data).
class WireWriter {
 public:
  /// Appends a varint with no tag, padded with continuation bytes to at least `min_bytes`
  /// (overlong forms).
  WireWriter& Varint(uint64_t value, int min_bytes = 1);
  /// Appends the tag of field `number` with `type`.
  WireWriter& Tag(uint32_t number, WireType type);
  /// Appends 4 little-endian bytes, with no tag.
  WireWriter& Fixed32(uint32_t value);
  /// Appends 8 little-endian bytes, with no tag.
  WireWriter& Fixed64(uint64_t value);
  /// Appends raw bytes, as they are.
  WireWriter& Raw(std::string_view bytes);

  /// Field `number` as a varint (int64 values are sign-extended to 10 bytes when negative).
  WireWriter& VarintField(uint32_t number, uint64_t value);
  /// Field `number` as a fixed32.
  WireWriter& Fixed32Field(uint32_t number, uint32_t value);
  /// Field `number` as a fixed64.
  WireWriter& Fixed64Field(uint32_t number, uint64_t value);
  /// Field `number` as a float (wire type fixed32).
  WireWriter& FloatField(uint32_t number, float value);
  /// Field `number` as length-delimited `payload`.
  WireWriter& BytesField(uint32_t number, std::string_view payload);
  /// Field `number` as a nested message: the bytes `message` has written so far.
  WireWriter& MessageField(uint32_t number, const WireWriter& message);
  /// Field `number` as a group: a start-group tag, the bytes of `inner`, an end-group tag.
  WireWriter& GroupField(uint32_t number, const WireWriter& inner);
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
  /// The bytes written so far, so a writer can be passed wherever bytes are expected.
  operator std::string_view() const { return bytes_; }  // NOLINT(google-explicit-constructor)

 private:
  std::string bytes_;
};

/// Shorthand for building nested messages inline: Msg().VarintField(...).Take().
inline WireWriter Msg() { return WireWriter(); }

}  // namespace recflow::testing
