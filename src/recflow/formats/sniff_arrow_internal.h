// The Arrow IPC stream checks of format sniffing, in one place (private to formats/sniff).
#pragma once

#include <cstdint>
#include <span>

namespace recflow::formats::internal {

/// Which generation of Arrow IPC stream a head starts with.
enum class ArrowStreamHead : uint8_t { kNone, kCurrent, kLegacy };

/// Checks the first message of a stream: since Arrow 0.15 the 0xFFFFFFFF continuation marker,
/// an int32 metadata length and a flatbuffer Message; before 0.15 the length and the Message
/// alone. The Message must be a Schema message: its root offset, vtable and fields are checked
/// against the bytes at hand (and the whole flatbuffer is verified when the head holds it).
ArrowStreamHead CheckArrowStreamHead(std::span<const uint8_t> head);

}  // namespace recflow::formats::internal
