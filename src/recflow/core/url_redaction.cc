// RedactUrlPasswords: each "://" followed to the end of its authority, the password in its userinfo masked.
#include "recflow/core/url_redaction.h"

#include <algorithm>

namespace recflow {

std::string RedactUrlPasswords(std::string_view text) {
  constexpr std::string_view kScheme = "://";
  constexpr std::string_view kAuthorityEnd = "/?#\\ \t\r\n\"'<>";
  std::string out;
  size_t copied = 0;  // text before this is in `out`
  for (size_t at = text.find(kScheme); at != std::string_view::npos; at = text.find(kScheme, at)) {
    const size_t start = at + kScheme.size();
    const size_t end = std::min(text.find_first_of(kAuthorityEnd, start), text.size());
    const std::string_view authority = text.substr(start, end - start);
    const size_t user_end = authority.rfind('@');
    const size_t colon = user_end == std::string_view::npos ? std::string_view::npos : authority.find(':');
    if (colon != std::string_view::npos && colon < user_end) {
      out.append(text.substr(copied, start + colon + 1 - copied)).append("***");
      copied = start + user_end;
    }
    at = end;
  }
  if (copied == 0) return std::string(text);
  out.append(text.substr(copied));
  return out;
}

}  // namespace recflow
