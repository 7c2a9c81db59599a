// Test helpers: Avro container files assembled byte by byte, for hostile and hand-made inputs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace recflow::avro::testing {

/// The zigzag varint of `v`.
inline std::string Long(int64_t v) {
  uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  std::string out;
  while (z > 0x7f) {
    out.push_back(static_cast<char>((z & 0x7f) | 0x80));
    z >>= 7;
  }
  out.push_back(static_cast<char>(z));
  return out;
}

/// Avro bytes/string: the length, then the bytes.
inline std::string Bytes(std::string_view s) { return Long(static_cast<int64_t>(s.size())).append(s); }

/// The sync marker the helpers use.
inline const std::string kTestSync = "0123456789abcdef";

/// A container header: magic, metadata {avro.schema, avro.codec}, sync marker.
inline std::string Header(std::string_view schema_json, std::string_view codec = "null") {
  return std::string("Obj\x01", 4) + Long(2) + Bytes("avro.schema") + Bytes(schema_json) + Bytes("avro.codec") +
         Bytes(codec) + Long(0) + kTestSync;
}

/// One block: record count, byte size, data, sync marker.
inline std::string Block(int64_t count, std::string_view data, const std::string& sync = kTestSync) {
  return Long(count) + Long(static_cast<int64_t>(data.size())) + std::string(data) + sync;
}

}  // namespace recflow::avro::testing
