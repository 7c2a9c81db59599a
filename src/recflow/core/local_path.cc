// LocalPath: scheme detection and file:// URI decoding.
#include "recflow/core/local_path.h"

#include <cctype>

namespace recflow {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool HasUriScheme(std::string_view text) {
  const size_t end = text.find("://");
  if (end == std::string_view::npos || end == 0 || std::isalpha(static_cast<unsigned char>(text[0])) == 0) return false;
  for (size_t i = 1; i < end; ++i) {
    const char c = text[i];
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '+' && c != '-' && c != '.') return false;
  }
  return true;
}

Result<std::string> LocalPath(std::string_view text) {
  if (!HasUriScheme(text)) return std::string(text);
  const size_t end = text.find("://");
  std::string scheme(text.substr(0, end));
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "file") {
    return Status::InvalidArgument(std::string(text) + ": recflow does not read or write " + scheme +
                                   ":// URIs yet (local paths and file:// URIs only)");
  }
  std::string_view rest = text.substr(end + 3);
  const size_t slash = rest.find('/');
  const std::string_view host = rest.substr(0, slash);
  if (!host.empty() && host != "localhost") {
    return Status::InvalidArgument(std::string(text) + ": a file:// URI names a local path (file:///PATH), not host '" +
                                   std::string(host) + "'");
  }
  if (slash == std::string_view::npos) return Status::InvalidArgument(std::string(text) + ": a file:// URI without a path");
  rest.remove_prefix(slash);
  std::string path;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] != '%') {
      path.push_back(rest[i]);
      continue;
    }
    const int hi = i + 2 < rest.size() ? HexValue(rest[i + 1]) : -1;
    const int lo = hi >= 0 ? HexValue(rest[i + 2]) : -1;
    if (lo < 0) return Status::InvalidArgument(std::string(text) + ": bad %-escape at character " + std::to_string(i));
    const int byte = hi * 16 + lo;
    if (byte < 0x20 || byte == 0x7f) {  // %00 would cut the path short; no path holds control bytes
      return Status::InvalidArgument(std::string(text) + ": %-escape of a control byte at character " + std::to_string(i));
    }
    path.push_back(static_cast<char>(byte));
    i += 2;
  }
  return path;
}

}  // namespace recflow
