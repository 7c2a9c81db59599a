// Endpoint parsing and the socket calls behind Listen, BoundEndpoint and Connect.
#include "recflow/serve/endpoint.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <functional>

namespace recflow::serve {

namespace {

Status Errno(const std::string& what) { return Status::IOError(what + ": " + std::strerror(errno)); }

Result<int> ParseNumber(std::string_view text, std::string_view whole, int max) {
  int value = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0 || value > max) {
    return Status::InvalidArgument("bad number '" + std::string(text) + "' in endpoint '" + std::string(whole) + "'");
  }
  return value;
}

/// A sockaddr_un for `path`; InvalidArgument when it does not fit.
Result<sockaddr_un> UnixAddress(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(address.sun_path)) {
    return Status::InvalidArgument("unix socket path '" + path + "' is empty or longer than " +
                                   std::to_string(sizeof(address.sun_path) - 1) + " bytes");
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  return address;
}

/// The addresses of a tcp endpoint (loopback when no host is given).
Result<addrinfo*> Resolve(const Endpoint& endpoint, bool passive) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  if (passive) hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(endpoint.port);
  const char* host = endpoint.host.empty() ? "127.0.0.1" : endpoint.host.c_str();
  const int rc = getaddrinfo(host, port.c_str(), &hints, &found);
  if (rc != 0) return Status::IOError("cannot resolve '" + endpoint.ToString() + "': " + gai_strerror(rc));
  return found;
}

/// What Listen and Connect do with a fresh socket and an address of the endpoint; false leaves
/// the reason in errno.
using SocketSetup = std::function<bool(int fd, const sockaddr* address, socklen_t length)>;

/// A close-on-exec stream socket on which `setup` succeeded: for kUnix at the path, for kTcp at
/// the first resolved address that works. Errors say `what` and why.
Result<int> OpenSocket(const Endpoint& endpoint, bool passive, const std::string& what, const SocketSetup& setup) {
  const auto open = [&](int family, int protocol, const sockaddr* address, socklen_t length) -> Result<int> {
    const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, protocol);
    if (fd < 0) return Errno("socket");
    if (!setup(fd, address, length)) {
      const Status st = Errno(what);
      ::close(fd);
      return st;
    }
    return fd;
  };
  if (endpoint.kind == Endpoint::Kind::kUnix) {
    ASSIGN_OR_RETURN(sockaddr_un address, UnixAddress(endpoint.path));
    return open(AF_UNIX, 0, reinterpret_cast<const sockaddr*>(&address), sizeof(address));
  }
  if (endpoint.kind != Endpoint::Kind::kTcp) return Status::InvalidArgument(what);
  ASSIGN_OR_RETURN(addrinfo * found, Resolve(endpoint, passive));
  Result<int> fd = Status::IOError("no address for " + endpoint.ToString());
  for (const addrinfo* a = found; a != nullptr && !fd.ok(); a = a->ai_next) {
    fd = open(a->ai_family, a->ai_protocol, a->ai_addr, a->ai_addrlen);
  }
  freeaddrinfo(found);
  return fd;
}

}  // namespace

std::string Endpoint::ToString() const {
  switch (kind) {
    case Kind::kTcp: {
      const std::string shown = host.empty() ? "127.0.0.1" : host;
      return "tcp://" + (shown.find(':') != std::string::npos ? "[" + shown + "]" : shown) + ":" + std::to_string(port);
    }
    case Kind::kUnix: return "unix://" + path;
    case Kind::kFd: return "fd://" + std::to_string(fd);
  }
  return "?";
}

bool LooksLikeEndpoint(std::string_view text) {
  return text.starts_with("tcp://") || text.starts_with("unix://") || text.starts_with("fd://");
}

Result<Endpoint> ParseEndpoint(std::string_view text) {
  Endpoint e;
  if (text == "-") {
    e.kind = Endpoint::Kind::kFd;
    e.fd = 1;
    return e;
  }
  if (text.starts_with("fd://")) {
    e.kind = Endpoint::Kind::kFd;
    ASSIGN_OR_RETURN(e.fd, ParseNumber(text.substr(5), text, 1 << 20));
    return e;
  }
  if (text.starts_with("unix://")) {
    e.kind = Endpoint::Kind::kUnix;
    e.path = std::string(text.substr(7));
    RETURN_NOT_OK(UnixAddress(e.path).status());
    return e;
  }
  std::string_view rest = text.starts_with("tcp://") ? text.substr(6) : text;
  size_t colon;
  if (rest.starts_with("[")) {
    const size_t close = rest.find(']');
    if (close == std::string_view::npos || close + 1 >= rest.size() || rest[close + 1] != ':') {
      return Status::InvalidArgument("endpoint '" + std::string(text) + "': expected [IPV6]:PORT");
    }
    e.host = std::string(rest.substr(1, close - 1));
    colon = close + 1;
  } else {
    colon = rest.rfind(':');
    if (colon == std::string_view::npos) {
      return Status::InvalidArgument("endpoint '" + std::string(text) +
                                     "' is not tcp://HOST:PORT, HOST:PORT, unix:///PATH, fd://N or -");
    }
    e.host = std::string(rest.substr(0, colon));
    if (e.host.find(':') != std::string::npos) {
      return Status::InvalidArgument("endpoint '" + std::string(text) + "': write IPv6 addresses as [ADDRESS]:PORT");
    }
  }
  ASSIGN_OR_RETURN(e.port, ParseNumber(rest.substr(colon + 1), text, 65535));
  return e;
}

Result<int> Listen(const Endpoint& endpoint, int backlog) {
  if (endpoint.kind == Endpoint::Kind::kUnix) {
    struct stat st;
    if (lstat(endpoint.path.c_str(), &st) == 0) {
      if (!S_ISSOCK(st.st_mode)) return Status::AlreadyExists(endpoint.path + " exists and is not a socket");
      ::unlink(endpoint.path.c_str());  // a stale socket of an earlier server
    }
  }
  return OpenSocket(endpoint, /*passive=*/true, "cannot listen on " + endpoint.ToString(),
                    [&](int fd, const sockaddr* address, socklen_t length) {
                      const int one = 1;  // no effect on unix sockets
                      ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
                      return ::bind(fd, address, length) == 0 && ::listen(fd, backlog) == 0;
                    });
}

Result<Endpoint> BoundEndpoint(const Endpoint& endpoint, int listen_fd) {
  if (endpoint.kind != Endpoint::Kind::kTcp) return endpoint;
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (::getsockname(listen_fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return Errno("getsockname");
  Endpoint bound = endpoint;
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&address);
    bound.port = ntohs(a->sin6_port);
    bound.host = ::inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof(text));
  } else {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&address);
    bound.port = ntohs(a->sin_port);
    bound.host = ::inet_ntop(AF_INET, &a->sin_addr, text, sizeof(text));
  }
  return bound;
}

Result<int> Connect(const Endpoint& endpoint) {
  return OpenSocket(endpoint, /*passive=*/false, "cannot connect to " + endpoint.ToString(),
                    [](int fd, const sockaddr* address, socklen_t length) {
                      return ::connect(fd, address, length) == 0;
                    });
}

}  // namespace recflow::serve
