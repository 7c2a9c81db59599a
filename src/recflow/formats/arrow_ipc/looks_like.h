// Recognising Arrow IPC streams (both framings) and files from the first bytes of an input, for content sniffing.
#pragma once

#include <cstdint>
#include <string_view>

namespace recflow::arrow_ipc {

/// How the first message of an input is framed, if it is an Arrow IPC stream.
enum class StreamFraming : uint8_t {
  kNotAStream,    ///< not the start of an Arrow IPC stream
  kContinuation,  ///< 0xFFFFFFFF, then the int32 metadata length (Arrow >= 0.15)
  kLegacy,        ///< the int32 metadata length alone (writers before Arrow 0.15)
};

/// What `head` (the first bytes of an input; any length) starts with: the framing of an Arrow
/// IPC stream whose first message is a Schema, or kNotAStream. The message header is checked
/// as far as `head` holds it: a metadata length in range, then the Message flatbuffer's root
/// table, its vtable, a metadata version V1..V5, a header of type Schema inside the metadata and
/// a body length of 0; when `head` holds the whole metadata, the flatbuffer is verified too.
/// Random bytes, TFRecord, CSV or JSON are not taken for a stream; a head too short to reach the
/// header type (usually the first 20 to 40 bytes) is not a stream either.
StreamFraming LooksLikeStream(std::string_view head);

/// True when `head` starts as an Arrow IPC file (Feather v2): the magic `ARROW1`, two zero
/// bytes of padding and, as far as `head` holds it, a first message (either framing) checked as
/// LooksLikeStream checks it, except that it may also be a dictionary or record batch (Arrow JS
/// writes the schema of a file only in its footer).
bool LooksLikeFile(std::string_view head);

}  // namespace recflow::arrow_ipc
