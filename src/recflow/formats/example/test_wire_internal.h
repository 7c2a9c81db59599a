// Test helper: builds protobuf wire bytes field by field, and tf.Example pieces from them.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

#include "recflow/formats/example/wire_internal.h"

namespace recflow::example::testing {

/// Appends fields to a byte string; every method returns *this for chaining.
class Wire {
 public:
  Wire() = default;
  /// Raw bytes, as they are.
  Wire& Raw(std::string_view bytes) {
    s_.append(bytes);
    return *this;
  }
  /// A varint with no tag.
  Wire& RawVarint(uint64_t v) {
    uint8_t buf[10];
    s_.append(reinterpret_cast<const char*>(buf), static_cast<size_t>(wire::WriteVarint(buf, v) - buf));
    return *this;
  }
  Wire& Tag(uint32_t field, wire::WireType type) { return RawVarint((uint64_t{field} << 3) | type); }
  Wire& Varint(uint32_t field, uint64_t v) { return Tag(field, wire::kVarint).RawVarint(v); }
  Wire& Fixed32(uint32_t field, uint32_t v) {
    Tag(field, wire::kFixed32);
    s_.append(reinterpret_cast<const char*>(&v), 4);
    return *this;
  }
  Wire& Float(uint32_t field, float f) {
    uint32_t v;
    std::memcpy(&v, &f, 4);
    return Fixed32(field, v);
  }
  Wire& Fixed64(uint32_t field, uint64_t v) {
    Tag(field, wire::kFixed64);
    s_.append(reinterpret_cast<const char*>(&v), 8);
    return *this;
  }
  Wire& Bytes(uint32_t field, std::string_view b) {
    Tag(field, wire::kLengthDelimited).RawVarint(b.size());
    s_.append(b);
    return *this;
  }
  Wire& Message(uint32_t field, const Wire& m) { return Bytes(field, m.str()); }
  Wire& Group(uint32_t field, const Wire& inner) {
    Tag(field, wire::kStartGroup).Raw(inner.str());
    return Tag(field, wire::kEndGroup);
  }
  Wire& PackedVarints(uint32_t field, std::initializer_list<int64_t> values) {
    Wire p;
    for (int64_t v : values) p.RawVarint(static_cast<uint64_t>(v));
    return Message(field, p);
  }
  Wire& PackedFloats(uint32_t field, std::initializer_list<float> values) {
    std::string p;
    for (float f : values) p.append(reinterpret_cast<const char*>(&f), 4);
    return Bytes(field, p);
  }
  const std::string& str() const { return s_; }
  operator std::string_view() const { return s_; }  // NOLINT(google-explicit-constructor)

 private:
  std::string s_;
};

/// Feature{int64_list{packed values}}.
inline Wire Int64Feature(std::initializer_list<int64_t> v) { return Wire().Message(3, Wire().PackedVarints(1, v)); }
/// Feature{float_list{packed values}}.
inline Wire FloatFeature(std::initializer_list<float> v) { return Wire().Message(2, Wire().PackedFloats(1, v)); }
/// Feature{bytes_list{values}}.
inline Wire BytesFeature(std::initializer_list<std::string_view> v) {
  Wire list;
  for (std::string_view s : v) list.Bytes(1, s);
  return Wire().Message(1, list);
}
/// A map entry {key, value}.
inline Wire Entry(std::string_view key, const Wire& value) { return Wire().Bytes(1, key).Message(2, value); }
/// Features / FeatureLists {entries...}.
inline Wire Map(std::initializer_list<Wire> entries) {
  Wire m;
  for (const Wire& e : entries) m.Message(1, e);
  return m;
}
/// Example{features{entries...}}.
inline Wire ExampleOf(std::initializer_list<Wire> entries) { return Wire().Message(1, Map(entries)); }
/// FeatureList{features...}.
inline Wire FeatureListOf(std::initializer_list<Wire> features) {
  Wire m;
  for (const Wire& f : features) m.Message(1, f);
  return m;
}

}  // namespace recflow::example::testing
