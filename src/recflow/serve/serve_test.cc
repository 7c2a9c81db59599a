// Tests of serve: endpoints, batch modes, standardization, concurrent passes over tcp and unix, hostile clients.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <thread>

#include "recflow/columnar/array.h"
#include "recflow/core/gathered_write.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/serve/endpoint.h"
#include "recflow/serve/held_bytes.h"
#include "recflow/serve/log_queue.h"
#include "recflow/serve/log_watch_test_util_internal.h"
#include "recflow/serve/refusal.h"
#include "recflow/serve/server.h"
#include "recflow/serve/socket_stream.h"
#include "recflow/serve/stream_client.h"
#include "recflow/testing/sample_arrays.h"
#include "recflow/testing/testdata.h"

namespace recflow::serve {
namespace {

using recflow::testing::BufferOf;
using testing::LogWatch;

TEST(EndpointTest, ParsesEveryForm) {
  EXPECT_EQ(ParseEndpoint("tcp://localhost:8008")->ToString(), "tcp://localhost:8008");
  EXPECT_EQ(ParseEndpoint("10.0.0.1:99")->port, 99);
  EXPECT_EQ(ParseEndpoint("[::1]:7")->host, "::1");
  EXPECT_EQ(ParseEndpoint("tcp://[::1]:7")->ToString(), "tcp://[::1]:7");
  EXPECT_EQ(ParseEndpoint(":0")->ToString(), "tcp://127.0.0.1:0");  // loopback by default
  EXPECT_EQ(ParseEndpoint("unix:///tmp/x.sock")->path, "/tmp/x.sock");
  EXPECT_EQ(ParseEndpoint("fd://3")->fd, 3);
  EXPECT_EQ(ParseEndpoint("-")->fd, 1);
  for (const char* bad : {"", "localhost", "host:99999", "host:-1", "::1:80", "[::1]80", "unix://", "fd://x"}) {
    EXPECT_EQ(ParseEndpoint(bad).status().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_TRUE(LooksLikeEndpoint("unix:///a"));
  EXPECT_FALSE(LooksLikeEndpoint("data/train.csv"));
}

TEST(EndpointTest, ListenAndConnectOverUnixAndTcpNameWhatFailed) {
  recflow::testing::ScratchDir dir;
  const Endpoint missing = *ParseEndpoint("unix://" + dir.File("none.sock"));
  const auto refused = Connect(missing);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().ToString().find("cannot connect to " + missing.ToString()), std::string::npos);
  std::ofstream(dir.File("plain.txt")) << "not a socket";
  EXPECT_EQ(Listen(*ParseEndpoint("unix://" + dir.File("plain.txt")), 4).status().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(Listen(*ParseEndpoint("fd://3"), 4).status().code(), StatusCode::kInvalidArgument);
  for (const std::string& text : {"unix://" + dir.File("ok.sock"), std::string(":0")}) {
    const Endpoint endpoint = *ParseEndpoint(text);
    auto listening = Listen(endpoint, 4);
    ASSERT_TRUE(listening.ok()) << listening.status().ToString();
    auto connected = Connect(*BoundEndpoint(endpoint, *listening));
    ASSERT_TRUE(connected.ok()) << connected.status().ToString();
    ::close(*connected);
    ::close(*listening);
  }
}

TEST(FdOutputStreamTest, GathersSmallWritesAndKeepsEveryByteInOrderOnSocketsAndPipes) {
  const std::vector<int64_t> sizes = {1, 7, 100000, 3, 300000, 65535, 65536, 8, 0, 5};  // small and large writes
  std::string expected;
  for (int64_t size : sizes) {
    for (int64_t i = 0; i < size; ++i) expected.push_back(static_cast<char>((expected.size() * 131) % 251));
  }
  for (const bool socket : {true, false}) {
    SCOPED_TRACE(socket ? "socketpair" : "pipe");
    int fds[2];
    ASSERT_EQ(socket ? ::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) : ::pipe(fds), 0);
    std::thread writer([&] {
      FdOutputStream out(fds[1], "writer", /*owned=*/true);
      size_t at = 0;
      for (int64_t size : sizes) {
        EXPECT_TRUE(out.Write(expected.data() + at, size).ok());
        at += static_cast<size_t>(size);
      }
      EXPECT_EQ(out.position(), static_cast<int64_t>(expected.size()));
      EXPECT_TRUE(out.Close().ok());  // sends the gathered tail, then closes
    });
    auto in = FileInputStream::FromFd(fds[0], "reader", /*owned=*/true);
    std::string got(expected.size() + 1, '\0');
    auto n = ReadFully(*in, got.data(), static_cast<int64_t>(got.size()));  // reads until EOF
    writer.join();
    ASSERT_TRUE(n.ok());
    got.resize(static_cast<size_t>(*n));
    EXPECT_TRUE(got == expected);
  }
}

TEST(FdOutputStreamTest, GatheredWritesOfManyPiecesGoOutInOrderThroughPartialSendsOnSocketsAndPipes) {
  // Small gathered writes are kept, large ones (more than IOV_MAX pieces, more than the socket
  // buffer) go out in several gathered calls, each resumed where the kernel stopped taking bytes.
  std::vector<std::string> storage;
  std::string expected;
  for (int i = 0; i < 3000; ++i) {
    std::string piece(static_cast<size_t>(i * 37 % 301), '\0');
    for (char& c : piece) c = static_cast<char>((expected.size() + static_cast<size_t>(&c - piece.data())) * 131 % 251);
    expected += piece;
    storage.push_back(std::move(piece));
  }
  const std::vector<std::string_view> all(storage.begin(), storage.end());
  const std::span<const std::string_view> few(all.data(), 10);  // under kDirectWriteBytes: gathered
  for (const bool socket : {true, false}) {
    SCOPED_TRACE(socket ? "socketpair" : "pipe");
    int fds[2];
    ASSERT_EQ(socket ? ::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) : ::pipe(fds), 0);
    if (socket) {
      const int small = 16 << 10;
      ::setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
    }
    std::thread writer([&] {
      FdOutputStream out(fds[1], "writer", /*owned=*/true);
      EXPECT_TRUE(out.WriteGathered(few).ok());
      EXPECT_TRUE(out.WriteGathered(all).ok());
      EXPECT_TRUE(out.Close().ok());
    });
    auto in = FileInputStream::FromFd(fds[0], "reader", /*owned=*/true);
    const std::string head(expected, 0, TotalSize(few));
    std::string got(head.size() + expected.size() + 1, '\0');
    auto n = ReadFully(*in, got.data(), static_cast<int64_t>(got.size()));  // reads until EOF
    writer.join();
    ASSERT_TRUE(n.ok());
    got.resize(static_cast<size_t>(*n));
    EXPECT_TRUE(got == head + expected);
  }
}

TEST(FdOutputStreamTest, AWriteThatOutlastsTheTimeoutSucceedsWhileTheReaderKeepsTakingBytes) {
  // The timeout is about progress: a write that takes longer than the timeout as a whole
  // succeeds while the reader keeps taking bytes. The stream's clock moves 100 ms each time it
  // is read (when bytes move and before each wait), so the write below lasts several timeouts
  // on that clock, and each wait for the reader is a few steps of it, well inside the timeout.
  // (Measured from the start of the write instead of the last progress, it fails.)
  using std::chrono::milliseconds;
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  const int small = 32 << 10;
  ::setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
  ::setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
  const timeval hang_bound{60, 0};
  ::setsockopt(fds[1], SOL_SOCKET, SO_RCVTIMEO, &hang_bound, sizeof(hang_bound));
  const int64_t total = 512 << 10;
  int64_t read = 0;
  std::thread reader([&] {  // takes what there is as soon as there is some
    std::vector<char> chunk(16 << 10);
    while (read < total) {
      const ssize_t n = ::recv(fds[1], chunk.data(), chunk.size(), 0);
      if (n <= 0) break;
      read += n;
    }
  });
  const auto start = std::chrono::steady_clock::now();
  int64_t ticks = 0;
  const auto clock = [&] { return start + milliseconds(100) * ++ticks; };
  FdOutputStream out(fds[0], "slow reader", /*owned=*/true, /*send_timeout_ms=*/1000, clock);
  const std::string data(static_cast<size_t>(total), 'x');
  const Status st = out.Write(data.data(), total);
  const Status closed = out.Close();
  reader.join();
  ::close(fds[1]);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(closed.ok()) << closed.ToString();
  EXPECT_EQ(read, total);
  EXPECT_GT(milliseconds(100) * ticks, milliseconds(1000)) << "the write never outlasted the timeout";
}

TEST(RefusalTest, IsAnEmptyStreamWhoseMetadataSaysWhyAndAnErrorForStreamClients) {
  auto bytes = EncodeRefusal("the server is busy");
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  auto reader = arrow_ipc::IpcStreamReader::Open(*bytes, "refusal");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const Schema& schema = *(*reader)->schema();
  EXPECT_EQ(schema.num_fields(), 0);
  ASSERT_NE(schema.metadata(), nullptr);
  EXPECT_EQ(schema.metadata()->Get(kErrorMetadataKey), "the server is busy");
  auto end = (*reader)->Next();
  ASSERT_TRUE(end.ok()) << end.status().ToString();
  EXPECT_EQ(*end, nullptr);
  const Status refused = RefusalOf(schema, "tcp://127.0.0.1:8008");
  EXPECT_EQ(refused.code(), StatusCode::kIOError);
  EXPECT_EQ(refused.message(), "tcp://127.0.0.1:8008: refused by the server: the server is busy");
  EXPECT_TRUE(RefusalOf(*Schema::Make({Field::Make("x", int64())}), "tcp://127.0.0.1:8008").ok());
}

std::shared_ptr<RecordBatch> Ints(int64_t first, int64_t n) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < n; ++i) values.push_back(first + i);
  auto schema = Schema::Make({Field::Make("x", int64(), false)});
  return *RecordBatch::Make(schema, n, {ArrayData::Make(int64(), n, {nullptr, BufferOf(values)}, 0)});
}

TEST(HeldBytesTest, CountsEveryBufferOnceAndWholeHoweverLittleASliceShows) {
  const auto batch = Ints(0, 1000);
  EXPECT_EQ(HeldBytes({{batch}}), 8000);
  EXPECT_EQ(HeldBytes({{batch->Slice(10, 5)}}), 8000);  // the slice keeps the whole buffer alive
  EXPECT_EQ(HeldBytes({{batch, batch->Slice(10, 5)}}), 8000);
  EXPECT_EQ(HeldBytes({{batch, Ints(0, 10)}}), 8080);
  auto schema = Schema::Make({Field::Make("a", int64(), false), Field::Make("b", int64(), false)});
  auto shared = *RecordBatch::Make(schema, 1000, {batch->column_data(0), batch->column_data(0)});
  EXPECT_EQ(HeldBytes({{shared}}), 8000);
}

TEST(HeldBytesTest, CountsTheWholeAllocationASliceKeepsAliveOnceAndOnlyTheSliceOfAMappedFile) {
  recflow::testing::ScratchDir dir;
  const std::vector<int64_t> values(1000, 7);
  const std::shared_ptr<Buffer> body = BufferOf(values);  // 8000 bytes: an IPC body, say
  const auto column = [](std::shared_ptr<Buffer> data) {
    return ArrayData::Make(int64(), 10, {nullptr, std::move(data)}, 0);
  };
  auto schema = Schema::Make({Field::Make("a", int64(), false), Field::Make("b", int64(), false)});
  const auto two_slices = *RecordBatch::Make(
      schema, 10, {column(*Buffer::Slice(body, 0, 80)), column(*Buffer::Slice(*Buffer::Slice(body, 800, 800), 0, 80))});
  EXPECT_EQ(HeldBytes({{two_slices}}), 8000);  // both show 80 bytes of one 8000-byte body
  const std::string path = dir.File("mapped.bin");
  std::ofstream(path) << std::string(8000, 'x');
  const std::shared_ptr<Buffer> map = *Buffer::MapFile(path);
  const auto mapped = *RecordBatch::Make(schema, 10, {column(*Buffer::Slice(map, 0, 80)), column(*Buffer::Slice(map, 800, 80))});
  EXPECT_EQ(HeldBytes({{mapped}}), 160);
}

TEST(LogQueueTest, PushNeverWaitsForABlockedCallbackAndDropsAreCountedAndTold) {
  std::mutex mutex;
  std::condition_variable cv;
  bool released = false;
  std::vector<std::string> lines;
  auto queue = LogQueue::Start(
      [&](const std::string& line) {
        std::unique_lock<std::mutex> lock(mutex);
        lines.push_back(line);
        cv.notify_all();
        cv.wait(lock, [&] { return released; });
      },
      /*capacity=*/2);
  ASSERT_TRUE(queue.ok()) << queue.status().ToString();
  (*queue)->Push("first");
  {
    std::unique_lock<std::mutex> lock(mutex);  // the callback holds "first" and blocks
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return !lines.empty(); }));
  }
  for (int i = 0; i < 5; ++i) (*queue)->Push("line " + std::to_string(i));  // 2 queued, 3 dropped
  EXPECT_EQ((*queue)->dropped(), 3);
  {
    std::lock_guard<std::mutex> lock(mutex);
    released = true;
  }
  cv.notify_all();
  queue->reset();  // delivers what is queued
  EXPECT_EQ(lines, (std::vector<std::string>{"first", "line 0", "line 1",
                                             "3 log lines dropped: the log did not keep up"}));
}

/// A CSV of `rows` rows "id,text" in a scratch dir.
std::string WriteCsv(const recflow::testing::ScratchDir& dir, int64_t rows) {
  const std::string path = dir.File("rows.csv");
  std::ofstream out(path);
  out << "id,text\n";
  for (int64_t i = 0; i < rows; ++i) out << i << ",row number " << i << " with some padding text\n";
  return path;
}

/// Expects the server to have closed `fd`: a read sees EOF, not data and not a wait (10 s is a
/// bound on a hang, not a timing).
void ExpectEof(int fd) {
  pollfd readable{fd, POLLIN, 0};
  ASSERT_EQ(::poll(&readable, 1, 10000), 1) << "connection still open after the end-of-stream marker";
  char byte;
  EXPECT_EQ(::recv(fd, &byte, 1, 0), 0);
}

/// Reads a whole pass from `endpoint` on a raw socket (after sending `greeting`, if any, which
/// the server ignores): the ids in order and the batch sizes; then the connection must end (EOF
/// right after the end-of-stream marker). Sends nothing when there is no greeting: a whole pass
/// may be in the socket buffers before the client sends anything, and a send to a unix socket
/// whose peer has closed fails with EPIPE, even a send of 0 bytes.
void ReadPass(const std::string& endpoint, std::vector<int64_t>* ids, std::vector<int64_t>* sizes,
              const std::string& greeting = "") {
  auto fd = Connect(*ParseEndpoint(endpoint));
  ASSERT_TRUE(fd.ok()) << fd.status().ToString();
  const timeval hang_bound{60, 0};  // a read that waits this long fails instead of hanging
  ::setsockopt(*fd, SOL_SOCKET, SO_RCVTIMEO, &hang_bound, sizeof(hang_bound));
  if (!greeting.empty()) {
    ASSERT_EQ(::send(*fd, greeting.data(), greeting.size(), MSG_NOSIGNAL), static_cast<ssize_t>(greeting.size()));
  }
  auto reader = arrow_ipc::IpcStreamReader::Open(FileInputStream::FromFd(::dup(*fd), endpoint, /*owned=*/true));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (*batch == nullptr) break;
    sizes->push_back((*batch)->num_rows());
    Int64Array values((*batch)->column_data(0));
    for (int64_t i = 0; i < (*batch)->num_rows(); ++i) ids->push_back(values.Value(i));
  }
  ExpectEof(*fd);
  ::close(*fd);
}

ServeOptions CsvOptions(const std::string& csv, int64_t batch_size) {
  ServeOptions options = ServeOptions::Defaults();
  options.inputs = {csv};
  options.batch_size = batch_size;
  options.columns = {"id"};
  return options;
}

TEST(ServerTest, StandardScaleFitsPopulationMomentsOverAFirstPassSkippingNullsAndRefusesText) {
  recflow::testing::ScratchDir dir;
  const std::string csv = dir.File("scaled.csv");
  std::ofstream(csv) << "a,b\n1,x\n2,y\n,z\n3,w\n";
  ServeOptions options = ServeOptions::Defaults();
  options.inputs = {csv};
  options.standard_scale = {"a"};
  BufferOutputStream out;
  ASSERT_TRUE(ServeOnePass(options, &out).ok());
  auto reader = arrow_ipc::IpcStreamReader::Open(out.Finish(), "<pass>");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto batch = (*reader)->Next();
  ASSERT_TRUE(batch.ok() && *batch != nullptr);
  Float64Array values((*batch)->column_data(0));  // mean 2, population std sqrt(2/3)
  EXPECT_DOUBLE_EQ(values.Value(0), -1.0 / std::sqrt(2.0 / 3.0));
  EXPECT_DOUBLE_EQ(values.Value(1), 0.0);
  EXPECT_TRUE(values.IsNull(2));
  EXPECT_DOUBLE_EQ(values.Value(3), 1.0 / std::sqrt(2.0 / 3.0));
  options.standard_scale = {"b"};
  const Status text = ServeOnePass(options, &out);
  EXPECT_EQ(text.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(text.message().find("standard-scale: column 'b' is utf8, not a number"), std::string::npos) << text.ToString();
}

TEST(ServerTest, ConcurrentClientsOverTcpAndUnixEachGetTheWholePassInOrder) {
  recflow::testing::ScratchDir dir;
  const int64_t rows = 50000;
  const std::string csv = WriteCsv(dir, rows);
  for (const std::string& listen : {std::string(":0"), "unix://" + dir.File("serve.sock")}) {
    SCOPED_TRACE(listen);
    LogWatch log;
    ServeOptions options = CsvOptions(csv, 1000);
    options.connections.log = log.Callback();
    auto server = Server::Start(*ParseEndpoint(listen), options);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    const std::string endpoint = (*server)->endpoint().ToString();
    std::vector<std::vector<int64_t>> ids(4), sizes(4);
    std::vector<std::thread> clients;
    for (int c = 0; c < 4; ++c) clients.emplace_back([&, c] { ReadPass(endpoint, &ids[c], &sizes[c]); });
    for (auto& t : clients) t.join();
    for (int c = 0; c < 4; ++c) {
      ASSERT_EQ(ids[c].size(), static_cast<size_t>(rows));
      for (int64_t i = 0; i < rows; ++i) ASSERT_EQ(ids[c][static_cast<size_t>(i)], i);
      EXPECT_EQ(sizes[c], std::vector<int64_t>(50, 1000));
    }
    // A client sees the end of stream just before its server thread counts the pass.
    EXPECT_TRUE(log.WaitFor(": pass complete", 4));
    EXPECT_EQ((*server)->stats().passes.load(), 4);
    auto client = StreamClient::Connect(endpoint);  // the client API reads the same pass
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    int64_t read = 0;
    for (auto batch = (*client)->Next(); batch.ok() && *batch != nullptr; batch = (*client)->Next()) {
      read += (*batch)->num_rows();
    }
    EXPECT_EQ(read, rows);
    EXPECT_GT((*client)->bytes_received(), rows * 8);  // at least the int64 values
  }
}

TEST(ServerTest, APassThatWouldHoldMoreThanTheClientMemoryCapStopsNamingWhere) {
  recflow::testing::ScratchDir dir;
  const std::string csv = WriteCsv(dir, 200000);  // 1 MiB CSV blocks of about 23 000 rows
  ServeOptions options = CsvOptions(csv, 100000);
  options.columns = {"id", "text"};
  options.client_memory_bytes = 4 << 20;  // a few blocks' rows, waiting to fill a batch, do not fit
  BufferOutputStream out;
  const Status st = ServeOnePass(options, &out);
  EXPECT_EQ(st.code(), StatusCode::kOutOfMemory) << st.ToString();
  EXPECT_EQ(st.context().file, csv);
  EXPECT_GT(st.context().record, 0);  // the first row of the block that went over
  EXPECT_NE(st.ToString().find("more than the 4.0 MiB one client may hold: raise --client-memory-mb"),
            std::string::npos)
      << st.ToString();
  options.client_memory_bytes = ServeOptions::Defaults().client_memory_bytes;
  BufferOutputStream whole;
  EXPECT_TRUE(ServeOnePass(options, &whole).ok());
  options.client_memory_bytes = 1000;
  EXPECT_EQ(ServeOnePass(options, &whole).code(), StatusCode::kInvalidArgument);
}

TEST(ServerTest, ServingOneSmallColumnOfAWideArrowStreamCountsTheWholeMessageBodyItKeepsAlive) {
  // Arrow IPC columns are slices of their message body: serving one column keeps all of it
  // alive, and the cap must count all of it, not the column's slice. An IPC file is mapped:
  // there a column holds file pages, not heap memory, and only its own bytes count.
  recflow::testing::ScratchDir dir;
  const int64_t rows = 50000;
  std::vector<FieldPtr> fields;
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (int c = 0; c < 9; ++c) {  // "id" (400 KB) and eight wide columns: a 3.6 MB body
    fields.push_back(Field::Make(c == 0 ? "id" : "wide" + std::to_string(c), int64(), false));
    std::vector<int64_t> values(static_cast<size_t>(rows));
    for (int64_t i = 0; i < rows; ++i) values[static_cast<size_t>(i)] = i * (c + 1);
    columns.push_back(ArrayData::Make(int64(), rows, {nullptr, BufferOf(values)}, 0));
  }
  const auto schema = Schema::Make(std::move(fields));
  const auto batch = *RecordBatch::Make(schema, rows, std::move(columns));
  for (const bool file : {false, true}) {
    SCOPED_TRACE(file ? "IPC file (mapped)" : "IPC stream");
    const std::string path = dir.File(file ? "wide.arrow" : "wide.arrows");
    {
      auto out = FileOutputStream::Open(path);
      ASSERT_TRUE(out.ok()) << out.status().ToString();
      auto writer = file ? arrow_ipc::IpcWriter::OpenFile(out->get(), schema, arrow_ipc::IpcWriteOptions::Defaults())
                         : arrow_ipc::IpcWriter::OpenStream(out->get(), schema, arrow_ipc::IpcWriteOptions::Defaults());
      ASSERT_TRUE(writer.ok()) << writer.status().ToString();
      ASSERT_TRUE((*writer)->Write(*batch).ok());
      ASSERT_TRUE((*writer)->Finish().ok());
      ASSERT_TRUE((*out)->Close().ok());
    }
    ServeOptions options = ServeOptions::Defaults();
    options.inputs = {path};
    options.columns = {"id"};
    options.batch_size = rows;
    options.client_memory_bytes = 2 << 20;  // the id column and the send buffer fit; the body does not
    BufferOutputStream out;
    const Status st = ServeOnePass(options, &out);
    if (file) {
      EXPECT_TRUE(st.ok()) << st.ToString();
    } else {
      EXPECT_EQ(st.code(), StatusCode::kOutOfMemory) << st.ToString();
      EXPECT_EQ(st.context().file, path);
    }
  }
}

TEST(ServerTest, ClientsReadEofAfterThePassEvenWhenTheLogBlocks) {
  // A log line that blocks (stderr a pipe nobody reads) must not keep a finished client from
  // reading the end of its connection.
  recflow::testing::ScratchDir dir;
  const std::string csv = WriteCsv(dir, 3000);
  for (const std::string& listen : {std::string(":0"), "unix://" + dir.File("eof.sock")}) {
    SCOPED_TRACE(listen);
    std::mutex mutex;
    std::condition_variable cv;
    bool open_gate = false;
    ServeOptions options = CsvOptions(csv, 100);
    options.connections.log = [&](const std::string& line) {
      if (line.find("pass complete") == std::string::npos) return;
      std::unique_lock<std::mutex> lock(mutex);
      cv.wait(lock, [&] { return open_gate; });
    };
    auto server = Server::Start(*ParseEndpoint(listen), options);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    const std::string endpoint = (*server)->endpoint().ToString();
    std::vector<std::vector<int64_t>> ids(3), sizes(3);
    std::vector<std::thread> clients;
    for (int c = 0; c < 3; ++c) clients.emplace_back([&, c] { ReadPass(endpoint, &ids[c], &sizes[c]); });
    for (auto& t : clients) t.join();
    for (int c = 0; c < 3; ++c) EXPECT_EQ(ids[c].size(), 3000u);
    {
      std::lock_guard<std::mutex> lock(mutex);
      open_gate = true;
    }
    cv.notify_all();
  }
}

TEST(ServerTest, HostileClientsAreDroppedWhileGoodClientsGetFullPasses) {
  recflow::testing::ScratchDir dir;
  const int64_t rows = 200000;  // ~10 MB on the wire: more than socket buffers hold
  const std::string csv = WriteCsv(dir, rows);
  ServeOptions options = CsvOptions(csv, 4096);
  options.columns = {"id", "text"};
  options.connections.send_timeout_ms = 500;
  options.connections.max_clients = 300;
  LogWatch log;
  options.connections.log = log.Callback();
  auto server = Server::Start(*ParseEndpoint(":0"), options);
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const Endpoint endpoint = (*server)->endpoint();
  std::vector<int> stalled;
  std::vector<std::thread> threads;
  for (int i = 0; i < 200; ++i) {
    auto fd = Connect(endpoint);
    ASSERT_TRUE(fd.ok()) << fd.status().ToString();
    switch (i % 3) {
      case 0: {  // sends garbage, then reads a little and leaves
        const std::string garbage(4096, 'Z');
        (void)!::write(*fd, garbage.data(), garbage.size());
        char buffer[100];
        (void)!::read(*fd, buffer, sizeof(buffer));
        ::close(*fd);
        break;
      }
      case 1:  // closes at once
        ::close(*fd);
        break;
      default:  // never reads: the server's sends stall until its timeout
        stalled.push_back(*fd);
    }
  }
  std::vector<int64_t> ids[3], sizes[3];
  // Good clients; one says something first: unread input at close must not reset the connection
  // (RST) and so cut off the tail of its pass.
  for (int c = 0; c < 3; ++c) {
    threads.emplace_back([&, c] { ReadPass(endpoint.ToString(), &ids[c], &sizes[c], c == 0 ? "hello\n" : ""); });
  }
  for (auto& t : threads) t.join();
  for (int c = 0; c < 3; ++c) {
    ASSERT_EQ(ids[c].size(), static_cast<size_t>(rows));
    EXPECT_EQ(ids[c].back(), rows - 1);
  }
  for (int fd : stalled) ::close(fd);
  // Every hostile connection ends as a drop; the good passes complete.
  EXPECT_TRUE(log.WaitForAny({": pass complete", ": dropped after"}, 203));
  EXPECT_EQ((*server)->stats().passes.load() + (*server)->stats().dropped.load(), 203);
  EXPECT_GE((*server)->stats().passes.load(), 3);
  EXPECT_GT((*server)->stats().dropped.load(), 60);
  // Memory stayed bounded: each stalled pass holds about one decoded block and one batch.
  std::ifstream status("/proc/self/status");
  std::string line;
  int64_t peak_kib = 0;
  while (std::getline(status, line)) {
    if (line.starts_with("VmHWM:")) peak_kib = std::stoll(line.substr(6));
  }
  EXPECT_LT(peak_kib, 512 * 1024) << "peak RSS " << peak_kib << " KiB";
  RecordProperty("peak_rss_kib", std::to_string(peak_kib));
  // And the server still serves.
  std::vector<int64_t> again, again_sizes;
  ReadPass(endpoint.ToString(), &again, &again_sizes);
  EXPECT_EQ(again.size(), static_cast<size_t>(rows));
}

}  // namespace
}  // namespace recflow::serve
