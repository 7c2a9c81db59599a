// Arrow IPC framing constants and limits; the format is described in docs/formats/arrow_ipc.md.
#pragma once

#include <cstdint>
#include <string_view>

namespace recflow::arrow_ipc {

/// The four bytes (0xFFFFFFFF) that start every message since Arrow 0.15.
inline constexpr uint32_t kContinuationMarker = 0xFFFFFFFFu;
/// The magic that starts and ends an IPC file ("Feather v2").
inline constexpr std::string_view kFileMagic{"ARROW1", 6};
/// The file magic is padded with zeros to this many bytes before the first message.
inline constexpr int64_t kFileHeaderSize = 8;
/// Bytes after the footer flatbuffer: int32 footer length + the magic.
inline constexpr int64_t kFileTrailerSize = 4 + 6;
/// Message metadata and bodies are padded to multiples of this.
inline constexpr int64_t kMessageAlignment = 8;
/// Deepest field nesting accepted in a schema (a field at top level has depth 1).
inline constexpr int kMaxFieldDepth = 64;
/// flatbuffers::Verifier limit on table nesting (fields nest two tables per level, plus the
/// message, schema, type and dictionary tables).
inline constexpr int kMaxFlatbufferDepth = 2 * kMaxFieldDepth + 16;
/// flatbuffers::Verifier limit on the number of tables in one flatbuffer.
inline constexpr int kMaxFlatbufferTables = 1000000;
/// Largest message metadata flatbuffer accepted (schemas with many fields stay far below).
inline constexpr int64_t kMaxMetadataBytes = int64_t{64} << 20;
/// Streams are read in pieces of at most this many bytes, so a lying length costs at most
/// this much memory beyond the bytes actually present.
inline constexpr int64_t kStreamReadChunk = int64_t{1} << 20;

}  // namespace recflow::arrow_ipc
