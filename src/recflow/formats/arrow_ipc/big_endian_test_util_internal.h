// Test support: an Arrow IPC stream or file rewritten big-endian (schema endianness set, every buffer's values swapped).
#pragma once

#include <string>

namespace recflow::arrow_ipc::testing {

/// `stream` (little-endian, uncompressed, as written by any IPC writer) rewritten big-endian:
/// the schema message says Big and each buffer's integers are byte-reversed as the spec's
/// layouts define them (written out independently of the reader). The schema flatbuffer grows
/// (a vtable copy and the endianness value); bodies keep their sizes. Problems are gtest failures.
std::string ToBigEndian(const std::string& stream);

/// The IPC file `file` (little-endian, uncompressed) rewritten big-endian: its messages as
/// ToBigEndian rewrites a stream, the footer's schema saying Big and its blocks moved past the
/// grown schema message.
std::string ToBigEndianFile(const std::string& file);

}  // namespace recflow::arrow_ipc::testing
