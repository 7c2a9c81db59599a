// Tests of the connection server: stalled clients, waiting, refusals, send timeouts, lingering close.
#include "recflow/serve/connection_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <future>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "recflow/columnar/array.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/serve/log_watch_test_util_internal.h"
#include "recflow/serve/refusal.h"
#include "recflow/serve/stream_client.h"
#include "recflow/testing/sample_arrays.h"
#include "recflow/testing/testdata.h"

namespace recflow::serve {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;
using testing::kHangBound;
using testing::LogWatch;

/// A stream of `rows` int64 ids 0, 1, ... in batches of `batch_rows`.
StreamFunction IdStream(int64_t rows, int64_t batch_rows) {
  return [=](OutputStream* out) -> Status {
    auto schema = Schema::Make({Field::Make("id", int64(), false)});
    ASSIGN_OR_RETURN(auto writer,
                     arrow_ipc::IpcWriter::OpenStream(out, schema, arrow_ipc::IpcWriteOptions::Defaults()));
    for (int64_t first = 0; first < rows; first += batch_rows) {
      const int64_t n = std::min(batch_rows, rows - first);
      std::vector<int64_t> ids(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) ids[static_cast<size_t>(i)] = first + i;
      auto column = ArrayData::Make(int64(), n, {nullptr, recflow::testing::BufferOf(ids)}, 0);
      ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema, n, {column}));
      RETURN_NOT_OK(writer->Write(*batch));
    }
    return writer->Finish();
  };
}

ConnectionOptions Options(LogWatch* log) {
  ConnectionOptions options = ConnectionOptions::Defaults();
  options.log = log->Callback();
  return options;
}

/// `fd`, whose reads now fail after kHangBound instead of hanging.
int WithBoundedReads(int fd) {
  const timeval bound{std::chrono::duration_cast<std::chrono::seconds>(kHangBound).count(), 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, sizeof(bound));
  return fd;
}

/// A socket connected to `endpoint`, with bounded reads.
int ConnectTo(const Endpoint& endpoint) {
  auto fd = Connect(endpoint);
  EXPECT_TRUE(fd.ok()) << fd.status().ToString();
  return fd.ok() ? WithBoundedReads(*fd) : -1;
}

/// A tcp socket with bounded reads, not connected yet, with a receive buffer of
/// `receive_buffer` bytes (0: the system's default; 1: as small as the system allows).
int TcpSocket(int receive_buffer = 0) {
  const int fd = WithBoundedReads(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (receive_buffer > 0) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof(receive_buffer));
  return fd;
}

/// Connects `fd` to `endpoint` (an IPv4 address).
void ConnectTcp(int fd, const Endpoint& endpoint) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(endpoint.port));
  ::inet_pton(AF_INET, endpoint.host.c_str(), &address.sin_addr);
  EXPECT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0) << std::strerror(errno);
}

/// The ids of the whole stream on `fd`, which it closes.
Result<std::vector<int64_t>> ReadIds(int fd, const std::string& name) {
  ASSIGN_OR_RETURN(auto reader, arrow_ipc::IpcStreamReader::Open(FileInputStream::FromFd(fd, name, /*owned=*/true)));
  std::vector<int64_t> ids;
  while (true) {
    ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (batch == nullptr) break;
    Int64Array values(batch->column_data(0));
    for (int64_t i = 0; i < batch->num_rows(); ++i) ids.push_back(values.Value(i));
  }
  return ids;
}

/// Expects `ids` to be 0 .. rows-1 in order.
void ExpectAllIds(const Result<std::vector<int64_t>>& ids, int64_t rows) {
  ASSERT_TRUE(ids.ok()) << ids.status().ToString();
  ASSERT_EQ(ids->size(), static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) ASSERT_EQ((*ids)[static_cast<size_t>(i)], i);
}

TEST(ConnectionServerTest, SixtyFourStalledClientsDoNotLockOutGoodClients) {
  // 64 clients connect and never read: every worker is stuck in a send. Good clients that come
  // next wait for a worker instead of being turned away, and get whole passes once the send
  // timeout has dropped the stalled ones.
  LogWatch log;
  ConnectionOptions options = Options(&log);
  options.send_timeout_ms = 1000;
  const int64_t rows = 2000000;  // 16 MB of ids: more than the socket buffers of a stalled client hold
  auto server = ConnectionServer::Start(*ParseEndpoint(":0"), options, IdStream(rows, 65536));
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const Endpoint endpoint = (*server)->endpoint();
  std::vector<int> stalled;
  for (int i = 0; i < 64; ++i) stalled.push_back(ConnectTo(endpoint));
  ASSERT_TRUE(log.WaitFor(": connected", 64));
  std::vector<Result<std::vector<int64_t>>> got(4, Status::Internal("not read"));
  std::vector<std::thread> good;
  for (int c = 0; c < 4; ++c) {
    good.emplace_back([&, c] { got[c] = ReadIds(ConnectTo(endpoint), "good client"); });
  }
  for (auto& t : good) t.join();
  for (const auto& ids : got) ExpectAllIds(ids, rows);
  ASSERT_TRUE(log.WaitFor(": dropped", 64));
  ASSERT_TRUE(log.WaitFor(": pass complete", 4));
  EXPECT_EQ((*server)->stats().passes.load(), 4);
  EXPECT_EQ((*server)->stats().dropped.load(), 64);
  EXPECT_EQ((*server)->stats().refused.load(), 0);
  for (int fd : stalled) ::close(fd);
}

TEST(ConnectionServerTest, AStalledClientIsDroppedWithinTheSendTimeoutWhateverItsBuffers) {
  // The stream never ends; the client never reads. Dropped no sooner than the timeout, and no
  // later than the timeout plus 3 s, a margin a loaded machine stays well inside (a bound, not
  // a speed): before, each send waited the whole timeout again after any progress, and drops
  // came at two or three times it, beyond this bound.
  for (const int receive_buffer : {0, 64 << 10}) {
    SCOPED_TRACE("SO_RCVBUF " + std::to_string(receive_buffer));
    LogWatch log;
    ConnectionOptions options = Options(&log);
    options.send_timeout_ms = 4000;
    auto server = ConnectionServer::Start(*ParseEndpoint(":0"), options, IdStream(int64_t{1} << 40, 1 << 20));
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    const int fd = TcpSocket(receive_buffer);  // the buffer size is set before connecting, when it counts
    const Clock::time_point start = Clock::now();
    ConnectTcp(fd, (*server)->endpoint());
    const std::optional<Clock::time_point> dropped = log.WaitFor("client 1: dropped");
    ASSERT_TRUE(dropped.has_value()) << "not dropped";
    EXPECT_GE(*dropped - start, milliseconds(options.send_timeout_ms));
    EXPECT_LE(*dropped - start, milliseconds(options.send_timeout_ms + 3000));
    ::close(fd);
  }
}

/// A server with a single worker, which a client that connects and never reads holds.
struct BusyServer {
  BusyServer(int max_waiting, int wait_timeout_ms) {
    ConnectionOptions options = Options(&log);
    options.max_clients = 1;
    options.max_waiting = max_waiting;
    options.wait_timeout_ms = wait_timeout_ms;
    auto started = ConnectionServer::Start(*ParseEndpoint(":0"), options, IdStream(int64_t{1} << 40, 1 << 20));
    EXPECT_TRUE(started.ok()) << started.status().ToString();
    if (!started.ok()) return;
    server = std::move(*started);
    holder = ConnectTo(server->endpoint());
    EXPECT_TRUE(log.WaitFor("client 1: connected"));
  }
  ~BusyServer() {
    if (server != nullptr) server->Stop();
    ::close(holder);
  }
  std::string endpoint() const { return server->endpoint().ToString(); }

  LogWatch log;
  std::unique_ptr<ConnectionServer> server;
  int holder = -1;
};

TEST(ConnectionServerTest, ARefusedClientReadsWhyAsAnEmptyStream) {
  BusyServer busy(/*max_waiting=*/0, /*wait_timeout_ms=*/60000);
  ASSERT_NE(busy.server, nullptr);
  // StreamClient turns the refusal into an error that says why.
  auto client = StreamClient::Connect(busy.endpoint());
  ASSERT_FALSE(client.ok());
  EXPECT_EQ(client.status().code(), StatusCode::kIOError);
  EXPECT_NE(client.status().ToString().find(
                "refused by the server: the server is busy (passes running: 1 of 1, connections waiting: 0 of 0)"),
            std::string::npos)
      << client.status().ToString();
  // Any IPC reader sees a valid empty stream whose schema metadata carries the reason, then EOF.
  auto reader = arrow_ipc::IpcStreamReader::Open(
      FileInputStream::FromFd(ConnectTo(busy.server->endpoint()), "raw client", /*owned=*/true));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->schema()->num_fields(), 0);
  ASSERT_NE((*reader)->schema()->metadata(), nullptr);
  EXPECT_NE((*reader)->schema()->metadata()->Get(kErrorMetadataKey).value_or("").find("busy"), std::string::npos);
  auto end = (*reader)->Next();
  ASSERT_TRUE(end.ok()) << end.status().ToString();
  EXPECT_EQ(*end, nullptr);
  EXPECT_EQ(busy.server->stats().refused.load(), 2);
}

TEST(ConnectionServerTest, AClientThatWaitedTooLongOrWasWaitingAtStopIsRefused) {
  {
    BusyServer busy(/*max_waiting=*/1, /*wait_timeout_ms=*/200);
    ASSERT_NE(busy.server, nullptr);
    auto late = StreamClient::Connect(busy.endpoint());  // waits 200 ms, then reads the refusal
    ASSERT_FALSE(late.ok());
    EXPECT_NE(late.status().ToString().find("no pass free after waiting 200 ms"), std::string::npos)
        << late.status().ToString();
  }
  // A connection still waiting when the server stops reads that it stops.
  BusyServer busy(/*max_waiting=*/1, /*wait_timeout_ms=*/60000);
  ASSERT_NE(busy.server, nullptr);
  std::thread stopper([&] {
    busy.log.WaitFor("client 2: connected, waiting");
    busy.server->Stop();
  });
  auto waiting = StreamClient::Connect(busy.endpoint());
  stopper.join();
  ASSERT_FALSE(waiting.ok());
  EXPECT_NE(waiting.status().ToString().find("refused by the server: the server is stopping"), std::string::npos)
      << waiting.status().ToString();
}

TEST(ConnectionServerTest, OutOfDescriptorsTheServerPausesAcceptingAndThenServes) {
  LogWatch log;
  auto server = ConnectionServer::Start(*ParseEndpoint(":0"), Options(&log), IdStream(100000, 1000));
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const int fd = TcpSocket();
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  const int lowest_free = ::dup(0);
  ::close(lowest_free);
  rlimit none = saved;
  none.rlim_cur = static_cast<rlim_t>(lowest_free);  // no new descriptor for anyone in this process
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &none), 0);
  ConnectTcp(fd, (*server)->endpoint());  // the kernel completes it; the server cannot accept it
  const bool paused = log.WaitFor("out of file descriptors").has_value();
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &saved), 0);
  EXPECT_TRUE(paused);
  ExpectAllIds(ReadIds(fd, "client"), 100000);
}

TEST(ConnectionServerTest, AClientThatSpeaksAfterTheServerIsDoneStillReadsTheWholeStream) {
  // The server has written its last byte and logged the pass while the tail of the stream still
  // sits in the socket buffers; then the client sends something. Had the server closed its
  // socket, that input would make it reset the connection: the unread tail is thrown away
  // (tcp) or the client's end of stream becomes an error (unix).
  const int64_t rows = 2000000;
  const StreamFunction stream = IdStream(rows, 65536);
  BufferOutputStream expected_out;
  ASSERT_TRUE(stream(&expected_out).ok());
  const std::shared_ptr<Buffer> expected = expected_out.Finish();
  for (const std::string& kind : {std::string("tcp"), std::string("unix")}) {
    SCOPED_TRACE(kind);
    recflow::testing::ScratchDir dir;
    LogWatch log;
    ConnectionOptions options = Options(&log);
    auto server = ConnectionServer::Start(*ParseEndpoint(kind == "unix" ? "unix://" + dir.File("s.sock") : ":0"),
                                          options, stream);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    int fd;
    if (kind == "unix") {
      fd = ConnectTo((*server)->endpoint());
    } else {  // what the server sends waits in its own send buffer, not in the client's
      fd = TcpSocket(/*receive_buffer=*/1);
      ConnectTcp(fd, (*server)->endpoint());
    }
    std::string received;
    std::vector<char> chunk(16 << 10);
    const auto read_up_to = [&](size_t size) {  // false when the connection failed or ended
      while (received.size() < size) {
        const ssize_t n = ::recv(fd, chunk.data(), std::min(chunk.size(), size - received.size()), 0);
        if (n <= 0) return n == 0;
        received.append(chunk.data(), static_cast<size_t>(n));
      }
      return true;
    };
    // All but a tail that the socket buffers hold for sure, so the server can finish.
    ASSERT_TRUE(read_up_to(static_cast<size_t>(expected->size()) - (16 << 10)));
    ASSERT_TRUE(log.WaitFor("client 1: pass complete"));
    ASSERT_EQ(::send(fd, "bye\n", 4, MSG_NOSIGNAL), 4);
    const bool ended = read_up_to(static_cast<size_t>(expected->size()) + 1);
    const int error = errno;
    ::close(fd);
    EXPECT_TRUE(ended) << "after " << received.size() << " of " << expected->size()
                       << " bytes: " << std::strerror(error);
    EXPECT_TRUE(received == expected->view()) << received.size() << " of " << expected->size() << " bytes";
  }
}

TEST(ConnectionServerTest, AnExceptionInAPassDropsThatClientAndTheServerGoesOn) {
  // Allocations outside the checked paths (scaler, IPC stream sink) may throw: the client
  // is dropped with a status, the worker and the server live on.
  LogWatch log;
  std::atomic<int> calls{0};
  const StreamFunction ids = IdStream(1000, 100);
  const StreamFunction stream = [&](OutputStream* out) -> Status {
    switch (calls++) {
      case 0:
        throw std::bad_alloc();
      case 1:
        throw std::runtime_error("a broken invariant");
      default:
        return ids(out);
    }
  };
  ConnectionOptions options = Options(&log);
  options.max_clients = 1;  // one worker: it must survive both
  auto server = ConnectionServer::Start(*ParseEndpoint(":0"), options, stream);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  EXPECT_FALSE(ReadIds(ConnectTo((*server)->endpoint()), "client 1").ok());
  ASSERT_TRUE(log.WaitFor("client 1: dropped after 0 bytes: out of memory while sending the pass"));
  EXPECT_FALSE(ReadIds(ConnectTo((*server)->endpoint()), "client 2").ok());
  ASSERT_TRUE(log.WaitFor("client 2: dropped after 0 bytes: the pass failed: a broken invariant"));
  ExpectAllIds(ReadIds(ConnectTo((*server)->endpoint()), "client 3"), 1000);
  ASSERT_TRUE(log.WaitFor("client 3: pass complete"));
  EXPECT_EQ((*server)->stats().dropped.load(), 2);
  EXPECT_EQ((*server)->stats().passes.load(), 1);
}

TEST(ConnectionServerTest, AWorkerThatCannotStartRefusesItsConnectionAndTheServerGoesOn) {
  LogWatch log;
  ConnectionOptions options = Options(&log);
  std::atomic<int> starts{0};
  options.start_thread = [&](std::function<void()> body) {
    if (starts++ == 0) throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
    return std::thread(std::move(body));
  };
  auto server = ConnectionServer::Start(*ParseEndpoint(":0"), options, IdStream(1000, 100));
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  auto refused = StreamClient::Connect((*server)->endpoint().ToString());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().ToString().find("refused by the server: the server cannot start a pass ("),
            std::string::npos)
      << refused.status().ToString();
  ExpectAllIds(ReadIds(ConnectTo((*server)->endpoint()), "client 2"), 1000);
  ASSERT_TRUE(log.WaitFor("client 2: pass complete"));
  EXPECT_EQ((*server)->stats().refused.load(), 1);
  EXPECT_EQ((*server)->stats().passes.load(), 1);
}

TEST(ConnectionServerTest, StopReturnsWhileTheLogBlocks) {
  // Every log line blocks until released (stderr a full pipe): a stream aborted by Stop() logs
  // its drop, which must not keep Stop() from returning.
  std::mutex mutex;
  std::condition_variable cv;
  bool released = false;
  LogWatch log;
  ConnectionOptions options = ConnectionOptions::Defaults();
  const auto watch = log.Callback();
  options.log = [&](const std::string& line) {
    watch(line);
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return released; });
  };
  auto server = ConnectionServer::Start(*ParseEndpoint(":0"), options, IdStream(int64_t{1} << 40, 1 << 20));
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const int fd = ConnectTo((*server)->endpoint());  // reads one byte, then no more: its pass runs until Stop
  char byte;
  ASSERT_EQ(::recv(fd, &byte, 1, 0), 1);  // a worker runs the pass; the log is blocked in "connected"
  auto stopped = std::async(std::launch::async, [&] { (*server)->Stop(); });
  const bool returned = stopped.wait_for(kHangBound) == std::future_status::ready;
  {
    std::lock_guard<std::mutex> lock(mutex);
    released = true;
  }
  cv.notify_all();
  EXPECT_TRUE(returned) << "Stop() waited for the log";
  stopped.wait();
  server->reset();  // delivers the queued lines: the drop of client 1
  EXPECT_TRUE(log.WaitFor("client 1: dropped"));
  ::close(fd);
}

TEST(ConnectionServerTest, AServerThatCannotStartLeavesNoSocketFileBehind) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("s.sock");
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  const int lowest_free = ::dup(0);
  ::close(lowest_free);
  rlimit one = saved;
  one.rlim_cur = static_cast<rlim_t>(lowest_free + 1);  // the listening socket, not the wake-up pipe
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &one), 0);
  auto server = ConnectionServer::Start(*ParseEndpoint("unix://" + path), ConnectionOptions::Defaults(),
                                        IdStream(10, 10));
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &saved), 0);
  ASSERT_FALSE(server.ok());
  EXPECT_NE(server.status().ToString().find("cannot set up the accept loop"), std::string::npos)
      << server.status().ToString();
  EXPECT_NE(::access(path.c_str(), F_OK), 0) << path << " left behind";
}

TEST(ConnectionServerTest, AWaitingClientThatSpokeReadsTheStopRefusalAndThenEof) {
  // A connection refused because the server stops is closed at once; had the client sent
  // anything, that unread input would make the close a reset: on a unix socket the client's
  // EOF becomes an error, on tcp the refusal may be thrown away.
  recflow::testing::ScratchDir dir;
  LogWatch log;
  ConnectionOptions options = Options(&log);
  options.max_clients = 1;
  options.max_waiting = 1;
  auto server = ConnectionServer::Start(*ParseEndpoint("unix://" + dir.File("s.sock")), options,
                                        IdStream(int64_t{1} << 40, 1 << 20));
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const int holder = ConnectTo((*server)->endpoint());
  ASSERT_TRUE(log.WaitFor("client 1: connected"));
  const int fd = ConnectTo((*server)->endpoint());
  ASSERT_EQ(::send(fd, "hello\n", 6, MSG_NOSIGNAL), 6);
  ASSERT_TRUE(log.WaitFor("client 2: connected, waiting"));
  (*server)->Stop();
  std::string received;
  char chunk[4096];
  ssize_t n;
  while ((n = ::recv(fd, chunk, sizeof(chunk), 0)) > 0) received.append(chunk, static_cast<size_t>(n));
  EXPECT_EQ(n, 0) << "no EOF: " << std::strerror(errno);
  ::close(fd);
  ::close(holder);
  auto reader = arrow_ipc::IpcStreamReader::Open(Buffer::FromString(received), "refusal");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_TRUE(RefusalOf(*(*reader)->schema(), "client").ToString().find("the server is stopping") !=
              std::string::npos);
}

}  // namespace
}  // namespace recflow::serve
