// RedactUrlPasswords: the password of every URL in a text replaced by "***", wherever a dataset or file name is printed.
#pragma once

#include <string>
#include <string_view>

namespace recflow {

/// `text` with the password of each URL in it (`scheme://user:password@host/...`, RFC 3986's
/// userinfo: up to the last '@' before the host's end at '/', '?', '#', a space or a quote)
/// replaced by "***", the user kept (`recflow inspect` names the HTTP user too, never the secret).
/// Status::WithFile, GDAL's messages and `recflow inspect` pass names through it, so a password
/// written inline into a `/vsicurl/` dataset name is never echoed. Text without one is returned
/// as it is.
std::string RedactUrlPasswords(std::string_view text);

}  // namespace recflow
