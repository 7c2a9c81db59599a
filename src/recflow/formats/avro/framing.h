// Avro object container file constants and limits; the format is described in docs/formats/avro.md.
#pragma once

#include <cstdint>
#include <string_view>

namespace recflow::avro {

/// The four bytes every object container file starts with: 'O', 'b', 'j', 1.
inline constexpr std::string_view kMagic{"Obj\x01", 4};
/// Bytes of the sync marker that ends the header and every block.
inline constexpr int64_t kSyncSize = 16;
/// Header metadata key holding the writer schema as JSON.
inline constexpr std::string_view kSchemaMetadataKey = "avro.schema";
/// Header metadata key naming the block codec ("null" when absent).
inline constexpr std::string_view kCodecMetadataKey = "avro.codec";
/// A varint of a long takes at most this many bytes.
inline constexpr int kMaxVarintBytes = 10;
/// Deepest nesting of named and anonymous types accepted in a schema.
inline constexpr int kMaxSchemaDepth = 64;
/// Largest header metadata value (the schema JSON, mostly) read before giving up.
inline constexpr int64_t kMaxMetadataValueBytes = int64_t{64} << 20;
/// Largest number of items of an array or map block, or of records in a container block, whose
/// items encode to zero bytes (null, records of nulls): nothing else bounds such counts.
inline constexpr int64_t kMaxZeroSizeItems = int64_t{1} << 20;

}  // namespace recflow::avro
