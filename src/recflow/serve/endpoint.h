// Endpoints of `recflow serve` and its clients: tcp://HOST:PORT, HOST:PORT, unix:///path, fd://N, "-".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "recflow/core/result.h"

namespace recflow::serve {

/// Where a server listens or a client connects.
struct Endpoint {
  enum class Kind : uint8_t { kTcp, kUnix, kFd };
  Kind kind = Kind::kTcp;
  std::string host;  ///< kTcp: a name or address (IPv6 without brackets); empty = loopback
  int port = 0;      ///< kTcp: 0 lets the system choose (see BoundEndpoint)
  std::string path;  ///< kUnix: the socket file
  int fd = -1;       ///< kFd: an open descriptor (stdout for "-")

  /// "tcp://127.0.0.1:8008", "tcp://[::1]:8008", "unix:///tmp/s.sock", "fd://1".
  std::string ToString() const;
};

/// Parses `tcp://HOST:PORT`, `HOST:PORT` (as TensorFlow I/O writes them), `[IPV6]:PORT`,
/// `:PORT` (loopback), `unix:///path` (or `unix://relative/path`), `fd://N` and `-` (fd 1).
/// InvalidArgument naming the text otherwise.
Result<Endpoint> ParseEndpoint(std::string_view text);

/// True when `text` names a network or socket endpoint (tcp://, unix://, fd://), as opposed to a
/// file path.
bool LooksLikeEndpoint(std::string_view text);

/// A listening socket for a kTcp or kUnix endpoint (SO_REUSEADDR; a stale unix socket file is
/// replaced, any other file at the path is an error). Returns the descriptor.
Result<int> Listen(const Endpoint& endpoint, int backlog);

/// The endpoint a listening socket is bound to (the chosen port when `endpoint.port` was 0).
Result<Endpoint> BoundEndpoint(const Endpoint& endpoint, int listen_fd);

/// A connected socket to a kTcp or kUnix endpoint (names resolve; every address is tried).
Result<int> Connect(const Endpoint& endpoint);

}  // namespace recflow::serve
