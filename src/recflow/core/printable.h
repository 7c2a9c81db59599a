// PrintableText: a message made safe for a terminal — control bytes and invalid UTF-8 shown as \xNN.
#pragma once

#include <string>
#include <string_view>

namespace recflow {

/// `text` with every byte a terminal would not show as itself escaped as `\xNN`: C0 control bytes
/// (except newline and tab), DEL, and bytes that are not part of a well-formed UTF-8 sequence.
/// Printable ASCII and well-formed multi-byte UTF-8 pass unchanged. Error messages quote column
/// names, paths and file content, any of which may hold such bytes.
std::string PrintableText(std::string_view text);

}  // namespace recflow
