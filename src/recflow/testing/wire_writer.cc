// WireWriter: protobuf wire primitives appended to a byte string.
#include "recflow/testing/wire_writer.h"

#include <cstring>

namespace recflow::testing {

WireWriter& WireWriter::Varint(uint64_t value, int min_bytes) {
  int written = 0;
  while (value >= 0x80 || written + 1 < min_bytes) {
    bytes_.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
    ++written;
  }
  bytes_.push_back(static_cast<char>(value));
  return *this;
}

WireWriter& WireWriter::Tag(uint32_t number, WireType type) {
  return Varint((static_cast<uint64_t>(number) << 3) | static_cast<uint64_t>(type));
}

WireWriter& WireWriter::Fixed32(uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<char>(value >> (8 * i)));
  return *this;
}

WireWriter& WireWriter::Fixed64(uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<char>(value >> (8 * i)));
  return *this;
}

WireWriter& WireWriter::Raw(std::string_view bytes) {
  bytes_.append(bytes);
  return *this;
}

WireWriter& WireWriter::VarintField(uint32_t number, uint64_t value) {
  return Tag(number, WireType::kVarint).Varint(value);
}

WireWriter& WireWriter::Fixed32Field(uint32_t number, uint32_t value) {
  return Tag(number, WireType::kFixed32).Fixed32(value);
}

WireWriter& WireWriter::Fixed64Field(uint32_t number, uint64_t value) {
  return Tag(number, WireType::kFixed64).Fixed64(value);
}

WireWriter& WireWriter::FloatField(uint32_t number, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return Fixed32Field(number, bits);
}

WireWriter& WireWriter::BytesField(uint32_t number, std::string_view payload) {
  return Tag(number, WireType::kLengthDelimited).Varint(payload.size()).Raw(payload);
}

WireWriter& WireWriter::MessageField(uint32_t number, const WireWriter& message) {
  return BytesField(number, message.bytes());
}

WireWriter& WireWriter::GroupField(uint32_t number, const WireWriter& inner) {
  return Tag(number, WireType::kStartGroup).Raw(inner.bytes()).Tag(number, WireType::kEndGroup);
}

WireWriter& WireWriter::PackedVarints(uint32_t number, std::initializer_list<int64_t> values) {
  WireWriter run;
  for (int64_t v : values) run.Varint(static_cast<uint64_t>(v));
  return MessageField(number, run);
}

WireWriter& WireWriter::PackedFloats(uint32_t number, std::initializer_list<float> values) {
  WireWriter run;
  for (float v : values) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    run.Fixed32(bits);
  }
  return MessageField(number, run);
}

WireWriter& WireWriter::UnknownFieldsOfEveryType(uint32_t first_number) {
  VarintField(first_number, ~uint64_t{0});
  Fixed64Field(first_number + 1, 0x0123456789ABCDEFull);
  BytesField(first_number + 2, "\x0a\x03xyz");
  GroupField(first_number + 3, WireWriter().VarintField(1, 7).BytesField(2, "in group"));
  Fixed32Field(first_number + 4, 0xDEADBEEF);
  return *this;
}

}  // namespace recflow::testing
